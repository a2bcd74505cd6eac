/** What the OpenAPI and AsyncAPI documents say of who runs the gateway and under which terms. */

/** Who answers for the gateway: the team that deploys it; the package names no address. */
export const CONTACT = { name: 'the team that runs this gateway' };
/** The package is private and unlicensed (UNLICENSED in package.json): no public licence applies. */
export const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
