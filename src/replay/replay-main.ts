import { existsSync } from 'node:fs';
import { RecordingPlayer } from './recording-player';
import { recordingFiles } from './recording-files';
import { parseReplayOptions, REPLAY_USAGE, UsageError } from './replay-options';

/** `npm run replay -- --dir <dir> ...`: serves a recording as an exchange until stopped. */
async function main(argv: readonly string[]): Promise<number | undefined> {
  let command;
  try {
    command = parseReplayOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`replay: ${error.message}\n\n${REPLAY_USAGE}\n`);
    return 2;
  }
  if (command === 'help') {
    process.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const report = (line: string) => process.stderr.write(`replay: ${line}\n`);
  if (!existsSync(command.dir)) {
    report(`no directory ${command.dir}`);
    return 1;
  }
  const { files, unreadable } = await recordingFiles(command.dir);
  for (const { path, message } of unreadable) report(`${path}: ${message}`);
  const processes = [...new Set(files.map((file) => file.header.process))];
  const chosen = command.process ?? (processes.length === 1 ? processes[0] : undefined);
  if (chosen === undefined || !processes.includes(chosen)) {
    report(
      processes.length === 0
        ? `no recording in ${command.dir}`
        : `${command.process ? `no process ${command.process}; ` : ''}choose one with --process: ${processes.join(', ')}`,
    );
    return 1;
  }
  const player = await RecordingPlayer.start({
    files: files.filter((file) => file.header.process === chosen),
    speed: command.speed,
    from: command.from,
    to: command.to,
    host: command.host,
    port: command.port,
    report,
  });
  report(`serving ${chosen}'s recording at ${player.url}`);
  const stop = () => void player.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `replay: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
