package io.ossgw.core.engine;

/** The engine could not start; the message is written for the user (what is wrong and what to do). */
public class EngineException extends RuntimeException {
  public EngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
