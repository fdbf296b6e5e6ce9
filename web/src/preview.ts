/**
 * Prepares a rendered page for the preview iframe (srcdoc, sandboxed without
 * scripts or same-origin, so the page cannot touch the parent to fix links itself).
 *
 * - Links within the document ("#section", e.g. from a contents topic) would
 *   resolve against the editor's own address and load it into the frame;
 *   pointed at about:srcdoc#section they scroll the preview instead.
 * - Other links open in a new tab (the sandbox allows popups) rather than
 *   replacing the preview, which this page's frame-src would block anyway.
 * - Images from other hosts load only when the reader allows them
 *   (`remoteImages`): loading one tells its host that someone is reading
 *   the document, from which address, which a stranger's shared link should
 *   not do unasked. Held-back images show their alt text in a frame instead.
 *
 * DOMParser builds an inert document: nothing in it runs or loads.
 */
export interface Preview {
  html: string;
  /** Images from other hosts that were not loaded. */
  held: number;
}

export function previewDocument(html: string, options: { remoteImages: boolean; origin: string }): Preview {
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
  let held = 0;
  for (const img of Array.from(doc.querySelectorAll<HTMLImageElement>('img[src]'))) {
    // The image element sends no Referer to another host; without it the
    // editor's address (and a shared link's token) stays here.
    img.setAttribute('referrerpolicy', 'no-referrer');
    if (options.remoteImages || !isRemote(img.getAttribute('src') ?? '', options.origin)) continue;
    const placeholder = doc.createElement('span');
    placeholder.className = 'rst2-held-image';
    placeholder.setAttribute('style', 'display:inline-block;border:1px dashed #888;padding:0.1em 0.4em;font-size:0.85em;color:#555');
    placeholder.textContent = `${img.getAttribute('alt') || 'image'} (remote image not loaded)`;
    placeholder.title = img.getAttribute('src') ?? '';
    img.replaceWith(placeholder);
    held++;
  }
  return { html: `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`, held };
}

/** An image source that would make the browser contact a host other than this one. */
function isRemote(src: string, origin: string): boolean {
  if (src.startsWith('data:')) return false;
  try {
    return new URL(src, origin).origin !== origin;
  } catch {
    return false;
  }
}
