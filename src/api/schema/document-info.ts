import type { AppConfig } from '../../config/app-config';

/** What the OpenAPI and AsyncAPI documents say of who runs the gateway and under which terms. */

export interface Contact {
  readonly name: string;
  readonly email?: string;
  readonly url?: string;
}

/** Who answers for the API: the team that deploys it, at the address and page its settings name. */
export function apiContact(config: Pick<AppConfig, 'API_CONTACT_EMAIL' | 'API_CONTACT_URL'>): Contact {
  return {
    name: "the exchange's API team",
    ...(config.API_CONTACT_EMAIL ? { email: config.API_CONTACT_EMAIL } : {}),
    ...(config.API_CONTACT_URL ? { url: config.API_CONTACT_URL } : {}),
  };
}

/** The package is private and unlicensed (UNLICENSED in package.json): no public licence applies. */
export const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
