// Writes the configuration tables from the configuration classes: each setting's description is its
// doc comment in the class, its default what the class gives it. `node scripts/config-table.js`
// writes every table; `--check` only says which document is not what this script writes.
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..');
const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';

/** Each configuration class and the document that holds its table. */
const TABLES = [
  {
    source: join(ROOT, 'src', 'config', 'app-config.ts'),
    className: 'AppConfig',
    document: join(ROOT, 'docs', 'configuration.md'),
  },
  {
    source: join(ROOT, 'packages', 'sandbox-exchange', 'src', 'config', 'sandbox-config.ts'),
    className: 'SandboxConfig',
    document: join(ROOT, 'packages', 'sandbox-exchange', 'README.md'),
  },
];

/** The class's settings in their order, each with the text of its doc comment on one line. */
function describedSettings(source, className) {
  const file = ts.createSourceFile(source, readFileSync(source, 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = file.statements.find(
    (statement) => ts.isClassDeclaration(statement) && statement.name?.text === className,
  );
  if (!declaration) throw new Error(`${relative(ROOT, source)}: no class ${className}`);
  return declaration.members.filter(ts.isPropertyDeclaration).map((member) => {
    const name = member.name.getText(file);
    const comment = ts.getJSDocCommentsAndTags(member).find(ts.isJSDoc)?.comment;
    const text = typeof comment === 'string' ? comment : ts.getTextOfJSDocComment(comment);
    if (!text) throw new Error(`${relative(ROOT, source)}: ${className}.${name} has no doc comment`);
    return { name, description: text.replace(/\s+/g, ' ').trim() };
  });
}

function defaultText(value) {
  if (value === undefined) return 'unset';
  if (value === '') return 'empty';
  return `\`${String(value)}\``;
}

/** The Markdown table of `ConfigClass`'s settings: setting, default, description. */
function configTable(source, className, ConfigClass) {
  const defaults = new ConfigClass();
  const rows = describedSettings(source, className).map(
    ({ name, description }) =>
      `| \`${name}\` | ${defaultText(defaults[name])} | ${description.replace(/\|/g, '\\|')} |`,
  );
  return ['| Setting | Default | Description |', '|---|---|---|', ...rows].join('\n');
}

/** `document` with the text between the markers replaced by `table`. */
function withTable(document, table, path) {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${relative(ROOT, path)}: no ${START} ... ${END}`);
  return `${document.slice(0, start + START.length)}\n${table}\n${document.slice(end)}`;
}

/** Each document as this script writes it, beside what it holds now. */
function expectedDocuments() {
  return TABLES.map(({ source, className, document }) => {
    const ConfigClass = require(source)[className];
    const current = readFileSync(document, 'utf8');
    return {
      path: document,
      current,
      expected: withTable(current, configTable(source, className, ConfigClass), document),
    };
  });
}

function main() {
  // Plain node reads the classes' TypeScript as the test suites do.
  require('../test/bench/swc-register.js');
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { path, current, expected } of expectedDocuments()) {
    if (current === expected) continue;
    if (check) {
      stale++;
      process.stderr.write(
        `${relative(ROOT, path)} is not what the configuration class gives: run npm run config-table\n`,
      );
    } else {
      writeFileSync(path, expected);
      process.stdout.write(`wrote ${relative(ROOT, path)}\n`);
    }
  }
  process.exitCode = stale > 0 ? 1 : 0;
}

module.exports = { configTable, expectedDocuments, withTable };

if (require.main === module) main();
