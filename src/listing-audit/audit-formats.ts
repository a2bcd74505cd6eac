import { AuditFormat, FormatName } from './audit-format';
import { CMC_FORMAT } from './cmc-format';
import { COINGECKO_FORMAT } from './coingecko-format';
import { LISTING_FORMAT } from './listing-format';

export const AUDIT_FORMATS: Readonly<Record<FormatName, AuditFormat>> = {
  listing: LISTING_FORMAT,
  cmc: CMC_FORMAT,
  coingecko: COINGECKO_FORMAT,
};
