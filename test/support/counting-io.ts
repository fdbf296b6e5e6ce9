/**
 * The folder store's real file operations (nodeFolderIo), each call recorded
 * on its way through: which operation, and how many bytes a write wrote. A
 * test reads from it the work one store call did, not how long it took.
 */
import { nodeFolderIo, type FolderIo } from '../../src/store/folder-io.js';

export interface Recorded {
  op: keyof FolderIo;
  /** Bytes written, for a write; 0 otherwise. */
  bytes: number;
}

export interface CountingIo {
  io: FolderIo;
  /** Everything recorded since the last take(), then forgets it. */
  take(): Recorded[];
}

export function countingIo(): CountingIo {
  let recorded: Recorded[] = [];
  const note = (op: keyof FolderIo, bytes = 0) => recorded.push({ op, bytes });
  const io: FolderIo = {
    read: (file) => (note('read'), nodeFolderIo.read(file)),
    exists: (file) => (note('exists'), nodeFolderIo.exists(file)),
    replace: (file, content) => (note('replace', Buffer.byteLength(content, 'utf8')), nodeFolderIo.replace(file, content)),
    touch: (file) => (note('touch'), nodeFolderIo.touch(file)),
    unlink: (file) => (note('unlink'), nodeFolderIo.unlink(file)),
    removeAll: (files) => (note('removeAll'), nodeFolderIo.removeAll(files)),
    mkdir: (dir) => (note('mkdir'), nodeFolderIo.mkdir(dir)),
    list: (dir) => (note('list'), nodeFolderIo.list(dir)),
    writable: (dir) => (note('writable'), nodeFolderIo.writable(dir)),
  };
  return {
    io,
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}
