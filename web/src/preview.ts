/**
 * Prepares a rendered page for the preview iframe (srcdoc, sandboxed without
 * scripts or same-origin, so the page cannot touch the parent to fix links itself).
 *
 * - Links within the document ("#section", e.g. from a contents topic) would
 *   resolve against the editor's own address and load it into the frame;
 *   pointed at about:srcdoc#section they scroll the preview instead.
 * - Other links open in a new tab (the sandbox allows popups) rather than
 *   replacing the preview, which this page's frame-src would block anyway.
 *
 * DOMParser builds an inert document: nothing in it runs or loads.
 */
export function previewDocument(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const link of Array.from(doc.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
    const href = link.getAttribute('href') ?? '';
    if (href.startsWith('#')) {
      link.setAttribute('href', `about:srcdoc${href}`);
    } else {
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    }
  }
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}
