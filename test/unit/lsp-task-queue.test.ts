/**
 * The language server's queue of work for the engine (src/lsp/task-queue.ts):
 * never more at once than its limit, in order, urgent work first, and a
 * failed task neither lost nor holding its place. Tasks are promises this
 * test settles itself, so every step is an event, not a time.
 */
import { expect } from 'chai';

import { TaskQueue } from '../../src/lsp/task-queue.js';

/** A task whose end the test decides; `started` says when the queue ran it. */
function gate(name: string, log: string[]): { task: () => Promise<string>; finish: () => void; fail: () => void } {
  let finish!: () => void;
  let fail!: () => void;
  const task = (): Promise<string> => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = () => resolve(name);
      fail = () => reject(new Error(`${name} failed`));
    });
  };
  return { task, finish: () => finish(), fail: () => fail() };
}

describe('lsp task queue', function () {
  it('runs at most its limit at once, the rest in the order added', async function () {
    const log: string[] = [];
    const queue = new TaskQueue(2);
    const gates = ['a', 'b', 'c', 'd'].map((n) => gate(n, log));
    const results = gates.map((g) => queue.add(g.task).result);
    expect(log).to.deep.equal(['start a', 'start b']);
    gates[1]!.finish();
    expect(await results[1]).to.equal('b');
    expect(log).to.deep.equal(['start a', 'start b', 'start c']);
    gates[0]!.finish();
    gates[2]!.finish();
    await Promise.all([results[0], results[2]]);
    expect(log).to.deep.equal(['start a', 'start b', 'start c', 'start d']);
    gates[3]!.finish();
    expect(await results[3]).to.equal('d');
  });

  it('puts urgent work and hurried work first in line', async function () {
    const log: string[] = [];
    const queue = new TaskQueue(1);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => gate(n, log));
    const running = queue.add(a!.task);
    const waitingB = queue.add(b!.task);
    const waitingC = queue.add(c!.task);
    const urgent = queue.add(d!.task, true);
    waitingC.hurry();
    a!.finish();
    await running.result;
    // c was hurried after d came urgently: c, then d, then b.
    expect(log).to.deep.equal(['start a', 'start c']);
    c!.finish();
    await waitingC.result;
    expect(log).to.deep.equal(['start a', 'start c', 'start d']);
    d!.finish();
    await urgent.result;
    b!.finish();
    expect(await waitingB.result).to.equal('b');
    expect(log).to.deep.equal(['start a', 'start c', 'start d', 'start b']);
  });

  it('passes a task\'s failure to its caller and goes on with the next', async function () {
    const log: string[] = [];
    const queue = new TaskQueue(1);
    const [a, b] = ['a', 'b'].map((n) => gate(n, log));
    const failing = queue.add(a!.task).result;
    const next = queue.add(b!.task).result;
    a!.fail();
    let failure: unknown;
    await failing.catch((err: unknown) => (failure = err));
    expect(failure).to.be.instanceOf(Error).with.property('message', 'a failed');
    b!.finish();
    expect(await next).to.equal('b');
    // A task that throws before returning its promise is a failure too.
    const thrown = queue.add(() => {
      throw new Error('at once');
    }).result;
    await thrown.then(
      () => expect.fail('a task that throws must fail'),
      (err: unknown) => expect(err).to.have.property('message', 'at once'),
    );
  });

  it('refuses a limit under one', function () {
    expect(() => new TaskQueue(0)).to.throw(RangeError);
  });
});
