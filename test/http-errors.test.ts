import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, query, server } from './support/server.js';

describe('client errors are clear JSON', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  async function expectError(res: Response, status: number, code: string): Promise<{ code: string; message: string; [k: string]: unknown }> {
    expect(res.status, `status for ${code}`).to.equal(status);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const err = await errorOf(res);
    expect(err.code).to.equal(code);
    expect(err.message).to.be.a('string').and.not.empty;
    expect(err.message).to.not.match(/at .*\.js:\d+/); // no stack trace
    return err;
  }

  for (const path of ['html', 'pdf', 'check']) {
    it(`${path}: no input is 400 input_missing`, async () => {
      await expectError(await api(s, `/1.0/rst2/${path}`), 400, 'input_missing');
    });
    it(`${path}: two inputs are 400 input_ambiguous`, async () => {
      const err = await expectError(await api(s, `/1.0/rst2/${path}${query({ rst: 'x', uri: 'http://example.org/' })}`), 400, 'input_ambiguous');
      expect(err.message).to.include('"rst"').and.include('"uri"');
    });
  }

  it('token: needs rst or uri, and refuses token', async () => {
    await expectError(await api(s, '/1.0/rst2/token'), 400, 'input_missing');
    await expectError(await api(s, `/1.0/rst2/token${query({ token: 'a'.repeat(32) })}`), 400, 'unknown_parameter');
  });

  it('an unknown parameter is named', async () => {
    const err = await expectError(await api(s, `/1.0/rst2/html${query({ rst: 'x', colour: 'red' })}`), 400, 'unknown_parameter');
    expect(err.parameter).to.equal('colour');
  });

  it('a repeated parameter is refused', async () => {
    await expectError(await api(s, '/1.0/rst2/html?rst=a&rst=b'), 400, 'duplicate_parameter');
  });

  it('bytes that are not UTF-8 are 400 invalid_utf8, in every body form', async () => {
    const bad = Buffer.from([0x48, 0x69, 0xff, 0xfe, 0x0a]);
    await expectError(await api(s, '/1.0/rst2/html?rst=Hi%FF'), 400, 'invalid_utf8');
    await expectError(await api(s, '/1.0/rst2/html', { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: bad }), 400, 'invalid_utf8');
    await expectError(
      await api(s, '/1.0/rst2/html', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'rst=%C3%28' }),
      400,
      'invalid_utf8',
    );
    const body = new FormData();
    body.append('rst', new Blob([bad]), 'bad.rst');
    await expectError(await api(s, '/1.0/rst2/check', { method: 'POST', body }), 400, 'invalid_utf8');
  });

  it('a body over RST2_MAX_BODY_BYTES is 413', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 10);
    await expectError(await api(s, '/1.0/rst2/html', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: big }), 413, 'body_too_large');
    await expectError(await api(s, '/1.0/rst2/html', form({ rst: big })), 413, 'body_too_large');
    const body = new FormData();
    body.append('rst', new Blob([big]), 'big.rst');
    await expectError(await api(s, '/1.0/rst2/html', { method: 'POST', body }), 413, 'body_too_large');
  });

  it('an unsupported body type is 415', async () => {
    await expectError(await api(s, '/1.0/rst2/html', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"rst":"x"}' }), 415, 'unsupported_media_type');
  });

  it('a wrong method is 405 with Allow', async () => {
    const res = await api(s, '/1.0/rst2/html', { method: 'DELETE' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.include('GET').and.include('POST');
  });

  it('an unknown path is 404 not_found', async () => {
    await expectError(await api(s, '/1.0/rst2/docx'), 404, 'not_found');
  });

  it('every response carries a request id', async () => {
    const res = await api(s, '/1.0/rst2/nothing');
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('an invalid use-latex-toc value is refused', async () => {
    await expectError(await api(s, `/1.0/rst2/pdf${query({ rst: 'x', 'use-latex-toc': 'maybe' })}`), 400, 'unknown_use_latex_toc');
  });

  it('an unknown LaTeX class is refused, naming the valid ones', async () => {
    const err = await expectError(await api(s, '/1.0/rst2/pdf', form({ rst: 'x', class: 'letter' })), 400, 'unknown_class');
    expect(err.valid).to.include.members(['article', 'scrartcl']);
  });
});
