/**
 * Hand-made PDF files, byte by byte: for the PDF check's own tests and for
 * image PDFs that carry what no PDF writer we run would write.
 */
import zlib from 'node:zlib';

export type Part = string | Buffer;

export function stream(dict: string, data: Part, length?: number): Buffer {
  const bytes = Buffer.from(data);
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${length ?? bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);
}

/** An object stream holding these objects (numbered from `first`), deflated. */
export function objectStream(first: number, objects: string[], filter = '/Filter /FlateDecode'): Buffer {
  let offset = 0;
  const header: string[] = [];
  for (const [i, o] of objects.entries()) {
    header.push(`${first + i} ${offset}`);
    offset += o.length + 1;
  }
  const head = `${header.join(' ')}\n`;
  const plain = Buffer.from(head + objects.join('\n') + '\n', 'latin1');
  const data = filter.includes('Flate') ? zlib.deflateSync(plain) : plain;
  return stream(`/Type /ObjStm /N ${objects.length} /First ${head.length} ${filter}`, data);
}

/** A whole file: objects numbered from 1, a cross-reference table and a trailer. */
export function pdf(objects: Part[], trailer = `<< /Size ${objects.length + 1} /Root 1 0 R >>`): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xd0\xd4\xc5\xd8\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((o, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from('\nendobj\n')]);
    offsets.push(at);
    at += chunk.length;
    parts.push(chunk);
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n${trailer}\nstartxref\n${at}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * A one-page PDF to include as an image: a blue square, and `resources`
 * inside the page's /Resources (pdfTeX copies them, and every object they
 * reach, into the document); `more` are objects 6, 7...
 */
export function imagePdf(resources: string, ...more: Part[]): Buffer {
  return Buffer.from(pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R /Resources 5 0 R >>',
    stream('', '0 0 1 rg 10 10 80 80 re f'),
    `<< ${resources} >>`,
    ...more,
  ]));
}
