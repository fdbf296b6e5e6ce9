/**
 * Loads an ES module for the single binary's launcher (src/sea/launcher.cts):
 * this file is unpacked to disk and loaded with createRequire, so it is an
 * ordinary CommonJS module and its import() works in every Node 20 release.
 */
module.exports = (url: string): Promise<unknown> => import(url);
