/**
 * Documents that try to put live script into the HTML output: the attack
 * report's payloads and variants of them (case, control characters and
 * whitespace in schemes, entity-like text, nested roles, substitutions,
 * titles and docinfo). Every payload calls alert() so a browser test can
 * see it run; hosts are under .invalid, which never resolves.
 */
export interface InjectionCase {
  name: string;
  rst: string;
}

const X = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
const doc = (body: string): string => `Injection\n=========\n\n${body}\n`;

export const INJECTION_CASES: InjectionCase[] = [
  // Math (docutils' math2html copied these into the page).
  { name: 'math \\text with a script', rst: doc(':math:`\\text{<script>alert(1)</script>}`') },
  { name: 'math \\mbox closing an attribute', rst: doc(':math:`\\mbox{"><svg onload=alert(1)>}`') },
  { name: 'math \\href javascript:', rst: doc(':math:`\\href{javascript:alert(1)}{x}`') },
  { name: 'math \\href with case and control characters', rst: doc(':math:`\\href{ JaVa\tScRiPt:alert(1)}{x} \\href{java\x01script:alert(1)}{y}`') },
  { name: 'math \\url javascript:', rst: doc(':math:`\\url{javascript:alert(1)}`') },
  { name: 'math \\color adding an attribute', rst: doc(':math:`\\color{red" onmouseover="alert(1)"}`') },
  { name: 'math \\sqrt optional argument', rst: doc(':math:`\\sqrt[<script>alert(1)</script>`') },
  { name: 'math \\hspace attribute', rst: doc(':math:`\\hspace{1em" onload="alert(1)}`') },
  { name: 'math \\mspace tag', rst: doc(':math:`\\mspace{1em"/><img src=x onerror=alert(1)>}`') },
  { name: 'math \\left delimiter', rst: doc(':math:`\\left<img src=x onerror=alert(1)> x \\right.`') },
  { name: 'math \\operatorname', rst: doc(':math:`\\operatorname{<img src=x onerror=alert(1)>}`') },
  { name: 'math with entity-like text', rst: doc(':math:`\\text{&lt;img src=x onerror=alert(1)&gt;} \\text{&#60;script&#62;alert(1)&#60;/script&#62;}`') },
  { name: 'math directive', rst: doc('.. math::\n\n   \\text{<script>alert(1)</script>} \\\\ \\href{javascript:alert(1)}{x}') },
  { name: 'math directive with name and class', rst: doc(`.. math::\n   :name: ${X}\n   :class: ${X.replace(/ /g, '_')}\n\n   \\mbox{<img src=x onerror=alert(1)>}`) },
  { name: 'math as the default role', rst: doc('.. default-role:: math\n\n`\\text{<script>alert(1)</script>}`') },
  { name: 'math in a custom role', rst: doc('.. role:: m(math)\n   :class: x" onmouseover="alert(1)\n\n:m:`\\text{<img src=x onerror=alert(1)>}`') },
  { name: 'math in a substitution', rst: doc('|m|\n\n.. |m| replace:: :math:`\\text{<script>alert(1)</script>}`') },
  { name: 'math nested in emphasis through a substitution', rst: doc('*see* |m| **now**\n\n.. |m| replace:: *x* :math:`\\mbox{<svg onload=alert(1)>}`') },
  {
    name: 'math in the title and docinfo',
    rst: `Title :math:\`\\text{<script>alert(1)</script>}\`\n${'='.repeat(50)}\n\n:Author: :math:\`\\mbox{<svg onload=alert(1)>}\`\n:Date: :math:\`\\href{javascript:alert(1)}{d}\`\n\nBody.\n`,
  },

  // .. meta:: (docutils writes attribute names unescaped).
  { name: 'meta attribute name with a script', rst: doc('.. meta::\n   :keywords a><script>alert(1)</script><x=y: d') },
  { name: 'meta attribute name with a refresh', rst: doc('.. meta::\n   :description a><meta/http-equiv=refresh: 0;url=https://evil.invalid/') },
  { name: 'meta http-equiv in any case', rst: doc('.. meta::\n   :HTTP-EQUIV=Refresh: 0;url=https://evil.invalid/\n   :name=x http-equiv=refresh: 0;url=https://evil.invalid/') },
  { name: 'meta attribute values', rst: doc(`.. meta::\n   :keywords lang=en"><script>alert(1)</script>: ${X}\n   :property=og:url: javascript:alert(1)\n   :charset=utf-7 name=c: x`) },

  // Links and images (safety.py's transform, checked again by the final pass).
  { name: 'javascript: links in any case', rst: doc('`a <javascript:alert(1)>`_ `b <JaVaScRiPt:alert(1)>`_ `c < javascript:alert(1)>`_') },
  { name: 'javascript: links with control characters', rst: doc('`a <java\x01script:alert(1)>`_ `b <\x0bjavascript:alert(1)>`_ `c <java\x7fscript:alert(1)>`_') },
  { name: 'javascript: through targets', rst: doc('a_ b__ `c`_\n\n.. _a: javascript:alert(1)\n__ JAVASCRIPT:alert(1)\n.. _c: javascript\\:alert(1)') },
  { name: 'entity-like and data: link text', rst: doc('`a <javascript&#58;alert(1)>`_ `b <&#106;avascript:alert(1)>`_ `c <data:text/html,<script>alert(1)</script>>`_ `d <vbscript:msgbox(1)>`_') },
  { name: 'image and figure targets', rst: doc('.. image:: x.png\n   :target: javascript:alert(1)\n\n.. figure:: y.png\n   :target: JavaScript:alert(1)\n\n   caption') },
  { name: 'image sources', rst: doc('|i|\n\n.. |i| image:: javascript:alert(1)\n\n.. image:: data:image/svg+xml,<svg/onload=alert(1)>') },
  { name: 'video alt text', rst: doc(`.. image:: movie.mp4\n   :alt: ${X}\n\n.. figure:: clip.webm\n   :class: controls\n   :alt: ${X}`) },
  { name: 'video URI', rst: doc(`.. image:: ${X.replace(/ /g, '_')}.mp4`) },
  { name: 'Flash alt text', rst: doc(`.. image:: old.swf\n   :alt: ${X}`) },

  // Other writer paths.
  { name: 'classes', rst: doc(`.. class:: ${X}\n\nA paragraph.\n\n.. container:: ${X.replace(/ /g, '_')}\n\n   c\n\n.. role:: r\n   :class: x" onclick="alert(1)\n\n:r:\`t\``) },
  { name: 'title directive', rst: doc(`.. title:: </title>${X}`) },
  { name: 'section title', rst: `Title ${X}\n${'='.repeat(90)}\n\nx\n` },
  { name: 'docinfo fields', rst: `Doc\n===\n\n:Author: ${X}\n:Authors: a; ${X}\n:Date: ${X}\n:Copyright: ${X}\n:Version: ${X}\n:${X.replace(/:/g, '')}: field\n\nx\n` },
  { name: 'code language and highlighting', rst: doc(`.. code:: ${X.replace(/ /g, '_')}\n\n   x\n\n.. code:: html\n\n   ${X}\n\n.. role:: py(code)\n   :language: python\n\n:py:\`${X}\``) },
  { name: 'footnote and citation labels', rst: doc(`[#f]_ [CIT]_ [#${X.replace(/[ \]]/g, '_')}]_\n\n.. [#f] ${X}\n.. [CIT] ${X}`) },
  { name: 'section numbers and contents', rst: doc(`.. contents:: ${X}\n.. sectnum::\n   :prefix: ${X}\n   :suffix: ${X}\n\nS\n-\n\nx`) },
  { name: 'tables', rst: doc(`.. csv-table:: ${X}\n   :header: "h"\n   :widths: 10\n\n   "${X.replace(/"/g, "'")}"\n\n.. list-table:: ${X}\n\n   * - ${X}`) },
  { name: 'comments', rst: doc(`.. --> ${X}\n\n.. --!> ${X}\n\n.. <!-- ${X}`) },
  { name: 'unicode characters', rst: doc('|lt|\\ script\\ |gt|\\ alert(1)\\ |lt|/script|gt|\n\n.. |lt| unicode:: 0x3C\n.. |gt| unicode:: 0x3E') },
  { name: 'raw role and directive', rst: doc('.. role:: r(raw)\n   :format: html\n\n:r:`<script>alert(1)</script>`\n\n.. raw:: html\n\n   <script>alert(1)</script>') },
  { name: 'header, footer and admonitions', rst: doc(`.. header:: ${X}\n.. footer:: ${X}\n\n.. admonition:: ${X}\n   :class: ${X.replace(/ /g, '_')}\n\n   x\n\n.. sidebar:: ${X}\n   :subtitle: ${X}\n\n   y`) },
  // Review finding: the text of an `ln` inline went unescaped into data-lineno,
  // and a <head> inside the body let <style> (markup, inside <math>) through.
  {
    name: 'ln role in a code parsed-literal',
    rst: doc('.. role:: ln\n\n.. parsed-literal::\n   :class: code\n\n   :ln:`"><head><math><style><img src=x onerror=alert(1)></style></math>`'),
  },
];
