/** Content type of the bodies the sandbox writes itself (exact decimals as bare JSON numbers). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
