import { parseAuditOptions, USAGE, UsageError } from './audit-options';
import { exitStatus, renderReport } from './audit-report';
import { runAudit } from './run-audit';

/** `npm run listing-audit -- <base URL> [--format ...]`: polls a listing API as an aggregator and reports. */
async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseAuditOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const outcome = await runAudit(command, (line) => process.stderr.write(`${line}\n`));
  if (command.json) process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
  else {
    const heading =
      `listing-audit ${command.baseUrl} --format ${command.format}: ${outcome.markets} markets, ` +
      `books and trades of ${outcome.sampled}, ${outcome.polls} poll${outcome.polls === 1 ? '' : 's'}` +
      (outcome.polls === 2 ? ` ${command.intervalMs / 1000} s apart` : '') +
      `, ${outcome.requests} requests`;
    process.stdout.write(`${renderReport(heading, outcome.results)}\n`);
  }
  return exitStatus(outcome.results);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `listing-audit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
