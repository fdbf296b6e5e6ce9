/**
 * Keeps the preview and the problem list up to date with the source: after
 * a pause in typing, one HTML render and one check go out; a newer edit
 * aborts requests still in flight, so a slow old answer never overwrites a
 * newer one.
 */
import { ApiError, check, renderHtml, type CheckMessage } from './api.js';

export interface LiveOptions {
  delayMs: number;
  text: () => string;
  style: () => string;
  dialect: () => string;
  showPreview: (html: string) => void;
  /** The problems check found in `checked`, the text it was sent. */
  showProblems: (messages: CheckMessage[], checked: string) => void;
  /** A short note for the status line; `error` marks a failure. */
  report: (note: string, error?: boolean) => void;
}

export class Live {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: AbortController | undefined;
  private lastKey = '';

  constructor(private readonly options: LiveOptions) {}

  /** Call on every edit: the update runs once the typing pauses. */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), this.options.delayMs);
  }

  /** Updates now (style change, first load), even when nothing changed. */
  now(): Promise<void> {
    clearTimeout(this.timer);
    this.lastKey = '';
    return this.update();
  }

  private async update(): Promise<void> {
    const text = this.options.text();
    const style = this.options.style();
    const dialect = this.options.dialect();
    const key = `${style}\u0000${dialect}\u0000${text}`;
    if (key === this.lastKey) return;
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    this.options.report('Rendering…');
    const started = performance.now();
    const [html, problems] = await Promise.allSettled([renderHtml(text, style, dialect, controller.signal), check(text, dialect, controller.signal)]);
    if (controller.signal.aborted) return; // A newer edit owns the preview now.
    this.inFlight = undefined;

    const failures: string[] = [];
    if (html.status === 'fulfilled') this.options.showPreview(html.value);
    else failures.push(`Preview not updated: ${describe(html.reason)}`);
    if (problems.status === 'fulfilled') this.options.showProblems(problems.value, text);
    else failures.push(`Check not updated: ${describe(problems.reason)}`);

    if (failures.length > 0) {
      // Keep the last good preview on screen; the status line says why it is stale.
      this.options.report(failures.join(' '), true);
      return;
    }
    this.lastKey = key;
    const count = problems.status === 'fulfilled' ? problems.value.length : 0;
    this.options.report(`Rendered in ${Math.round(performance.now() - started)} ms; ${count === 0 ? 'no problems' : count === 1 ? '1 problem' : `${count} problems`}.`);
  }
}

export function describe(err: unknown): string {
  if (err instanceof ApiError) return err.status > 0 ? `${err.message} (${err.code})` : err.message;
  return err instanceof Error ? err.message : String(err);
}
