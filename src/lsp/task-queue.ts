/**
 * The language server's work for the engine, at most `limit` tasks at once,
 * in the order they were added; a waiting task can be moved to the front.
 *
 * The engine's pool has its own queue, but a bounded one that refuses work
 * beyond it (RST2_QUEUE_LIMIT): an editor opening a hundred documents at once
 * would have a third of them refused. Waiting here instead, a task runs
 * only when the pool can take it, and reads the document's latest text
 * when it starts rather than when it was queued.
 */
export interface Queued<T> {
  result: Promise<T>;
  /** Moves the task to the front of the line, if it is still waiting. */
  hurry(): void;
}

export class TaskQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a task queue runs at least one task at once, not ${limit}`);
  }

  /** Runs `task` when fewer than `limit` run; `urgent` puts it before those waiting. */
  add<T>(task: () => Promise<T>, urgent = false): Queued<T> {
    let start!: () => void;
    const result = new Promise<T>((resolve, reject) => {
      start = () => {
        this.running++;
        let done: Promise<T>;
        try {
          done = task();
        } catch (err) {
          done = Promise.reject(err instanceof Error ? err : new Error(String(err)));
        }
        // The next task starts before this one's caller hears of its end.
        done
          .finally(() => {
            this.running--;
            this.next();
          })
          .then(resolve, reject);
      };
    });
    if (this.running < this.limit && this.waiting.length === 0) start();
    else if (urgent) this.waiting.unshift(start);
    else this.waiting.push(start);
    return {
      result,
      hurry: () => {
        const at = this.waiting.indexOf(start);
        if (at > 0) this.waiting.unshift(...this.waiting.splice(at, 1));
      },
    };
  }

  private next(): void {
    while (this.running < this.limit && this.waiting.length > 0) this.waiting.shift()!();
  }
}
