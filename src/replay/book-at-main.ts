import { BookAtError, bookAt } from './book-at';
import { BOOK_AT_USAGE, parseBookAtOptions, UsageError } from './replay-options';

/** `npm run book-at -- --dir <dir> --instrument <instrument> --at <time>`: prints the market at that moment as JSON. */
async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseBookAtOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`book-at: ${error.message}\n\n${BOOK_AT_USAGE}\n`);
    return 2;
  }
  if (command === 'help') {
    process.stdout.write(`${BOOK_AT_USAGE}\n`);
    return 0;
  }
  try {
    const answer = await bookAt(command.dir, command.instrument, command.at);
    for (const problem of answer.problems) process.stderr.write(`book-at: ${problem}\n`);
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof BookAtError)) throw error;
    process.stderr.write(`book-at: ${(error as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `book-at: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
