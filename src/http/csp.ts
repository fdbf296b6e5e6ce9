/**
 * The Content-Security-Policy of rendered HTML served by the API.
 *
 * A rendered page opened straight from the API (a shared ?token= link) is a
 * stranger's document on our origin: no scripts, its own opaque origin
 * (sandbox, so it cannot read the editor's localStorage), its embedded
 * stylesheet, and images from anywhere, as in the document.
 */
export const RENDERED_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; sandbox allow-popups allow-popups-to-escape-sandbox";
