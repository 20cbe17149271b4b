package io.ossgw.app.cli;

import io.ossgw.emulator.EmulatorMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ossgw emulator ...}: the OSS emulator as a stand-alone server; every argument goes to
 * {@link EmulatorMain} ({@code --port --bind --data --bucket --access-key --secret-key --virtual-host-base
 * --port-file}; {@code ossgw emulator --help} shows its usage).
 */
@Command(name = "emulator", description = "Run the OSS emulator (an OSS-compatible server for tests and demos); "
    + "options: --port --bind --data DIR --bucket NAME (repeatable) --access-key AK --secret-key SK ... (see --help).")
public class EmulatorCommand implements Callable<Integer> {
  @Unmatched
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    EmulatorMain.main(args.toArray(String[]::new));
    return ExitCodes.OK;
  }
}
