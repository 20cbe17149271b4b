package io.ossgw.app.cli;

import io.ossgw.emulator.EmulatorMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ossgw emulator ...}: the OSS emulator as a stand-alone server; every argument goes to
 * {@link EmulatorMain} ({@code --port --bind --data --bucket --access-key --secret-key --secret-key-file
 * --virtual-host-base --port-file}, and the secret from {@code OSSGW_EMULATOR_SECRET_KEY}; {@code ossgw emulator
 * --help} shows its usage).
 */
@Command(name = "emulator", description = "Run the OSS emulator (an OSS-compatible server for tests and demos); "
    + "options: --port --bind --data DIR --bucket NAME (repeatable) --access-key AK --secret-key-file FILE "
    + "(or env OSSGW_EMULATOR_SECRET_KEY; without a key pair authentication is off) ... (see --help).")
public class EmulatorCommand implements Callable<Integer> {
  @Unmatched
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    EmulatorMain.main(args.toArray(String[]::new));
    return ExitCodes.OK;
  }
}
