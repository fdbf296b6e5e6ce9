/** Shared by the command-line and single-binary tests. */

/** A clean document with a title and a word to find in every output. */
export const GOOD = `==============
Quarterly Note
==============

The zeppelin *quietly* crossed the fjord.
`;
