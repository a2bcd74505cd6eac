import { AssetOverride } from '../../market/catalog-join';
import { AssetsFileError, readAssetsFile } from './assets-file';
import { CatalogInputs } from './catalog-inputs';

const NO_OVERRIDES: ReadonlyMap<string, AssetOverride> = new Map();
/** Problems named in one report; the count of the others follows. */
const PROBLEMS_SHOWN = 5;

/**
 * ASSETS_FILE as each catalogue refresh reads it again. A file that turns unreadable or invalid
 * does not change the catalogue: the last good version is kept, and the cause goes to `inputs`.
 */
export class KeptAssetsFile {
  private lastGood?: ReadonlyMap<string, AssetOverride>;

  constructor(
    private readonly path: string | undefined,
    private readonly inputs: CatalogInputs,
    private readonly read: (path: string) => Promise<ReadonlyMap<string, AssetOverride>> = readAssetsFile,
  ) {}

  /** The entries of the file's last good version; none without a file or before one was read. */
  async entries(): Promise<ReadonlyMap<string, AssetOverride>> {
    if (this.path === undefined) return NO_OVERRIDES;
    try {
      this.lastGood = await this.read(this.path);
      this.inputs.succeeded('assets_file');
    } catch (error) {
      this.inputs.failed('assets_file', describeFailure(error));
    }
    return this.lastGood ?? NO_OVERRIDES;
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof AssetsFileError)) return (error as Error).message;
  const { source, problems } = error;
  const more = problems.length > PROBLEMS_SHOWN ? `; and ${problems.length - PROBLEMS_SHOWN} more` : '';
  return `${source}: ${problems.slice(0, PROBLEMS_SHOWN).join('; ')}${more}`;
}
