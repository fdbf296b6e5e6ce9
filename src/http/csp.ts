/** The Content-Security-Policies of the pages the service serves. */

/**
 * The Content-Security-Policy of rendered HTML served by the API.
 *
 * A rendered page opened straight from the API (a shared ?token= link) is a
 * stranger's document on our origin: no scripts, its own opaque origin
 * (sandbox, so it cannot read the editor's localStorage), its embedded
 * stylesheet, and images from anywhere, as in the document.
 */
export const RENDERED_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; sandbox allow-popups allow-popups-to-escape-sandbox";

/**
 * The page runs only its own bundle and talks only to this service.
 * style-src needs 'unsafe-inline' because the preview iframe (srcdoc)
 * inherits this policy and rendered pages embed their stylesheet; the
 * iframe is sandboxed without scripts, so inline styles are all it can do.
 * Images in the preview may come from https: hosts too, as the document
 * names them; the page itself holds them back for a shared link until the
 * reader allows them (web/src/preview.ts), so opening someone's link makes
 * no requests to other hosts unasked. Plain http: images stay blocked
 * (mixed content on an https editor, readable on the way everywhere).
 *
 * The manual at /docs/ (docs.ts) is served under the same policy: its pages
 * are docutils' HTML with an embedded stylesheet, and need nothing more.
 */
export const EDITOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
