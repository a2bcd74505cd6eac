import { BundleManifest } from './console-bundle';

/** Where the bundle's files are served, for both views and on both ports. */
export const ASSETS_PATH = '/status/assets';

/**
 * The pages may run the gateway's own script and style sheet and talk to the gateway only: no
 * inline script, nothing from elsewhere (the deployment may have no internet), never framed.
 * uPlot sizes its elements through the DOM's style properties, which the policy does not govern.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page shell: the script renders the view its path names from the feed it follows. */
export function pageHtml(title: string, view: 'console' | 'status', manifest: BundleManifest): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/${manifest.style}">
<script type="module" src="${ASSETS_PATH}/${manifest.script}"></script>
</head>
<body data-view="${view}">
<noscript>This page needs JavaScript, served by the gateway itself.</noscript>
<main id="app"></main>
</body>
</html>
`;
}
