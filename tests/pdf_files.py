"""Small PDFs written byte by byte, for preflight's hostile-input tests.

Each builder returns the bytes of a whole file (header, objects, cross-reference table,
trailer), so a test controls exactly what a hostile file holds: forms that draw forms,
an /Encrypt dictionary, a font with its own encoding.
"""

from __future__ import annotations

import zlib

PAGE_BOX = b"/MediaBox [0 0 200 200] /TrimBox [10 10 190 190] /BleedBox [0 0 200 200]"


def pdf(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """A PDF of ``objects`` (object 1 is the catalog) and extra trailer entries."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\n" % (len(objects) + 1, trailer)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def stream(entries: bytes, data: bytes, compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        entries += b" /Filter /FlateDecode"
    return b"<< /Length %d %s >>\nstream\n" % (len(data), entries) + data + b"\nendstream"


def one_page(content: bytes, resources: bytes = b"", extra: list[bytes] | None = None) -> bytes:
    """One page drawing ``content``; ``extra`` objects are numbers 5, 6, ..."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R %s /Resources << %s >> /Contents 4 0 R >>"
        % (PAGE_BOX, resources),
        stream(b"", content, compress=len(content) > 10_000),
        *(extra or []),
    ]
    return pdf(objects)


def nested_forms(levels: int, draws: int = 10) -> bytes:
    """A page that draws a form ``draws`` times, which draws the next ``draws`` times, ...
    ``levels`` deep; the last form fills a square. The file is a few kB at any depth."""
    forms = []
    for level in range(levels):
        number = 5 + level
        if level == levels - 1:
            content, resources = b"0 0 1 rg 0 0 10 10 re f", b""
        else:
            content = b"/F Do " * draws
            resources = b"/Resources << /XObject << /F %d 0 R >> >>" % (number + 1)
        forms.append(
            stream(b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] " + resources, content)
        )
    return one_page(b"/F Do " * draws, b"/XObject << /F 5 0 R >>", forms)


def form_loop() -> bytes:
    """A form that draws itself."""
    form = stream(
        b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] "
        b"/Resources << /XObject << /F 5 0 R >> >>",
        b"0 0 1 1 re f /F Do",
    )
    return one_page(b"/F Do", b"/XObject << /F 5 0 R >>", [form])


#: /Encrypt dictionaries of the standard security handler (ISO 32000-1, 7.6.3), with
#: keys that open nothing: preflight must name the cipher without decrypting.
_KEY = b"<" + b"00" * 32 + b">"
ENCRYPTIONS = {
    "RC4, 40-bit": b"<< /Filter /Standard /V 1 /R 2 /O %s /U %s /P -4 >>" % (_KEY, _KEY),
    "RC4, 128-bit": b"<< /Filter /Standard /V 2 /R 3 /Length 128 /O %s /U %s /P -4 >>"
    % (_KEY, _KEY),
    "AES-128": b"<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 "
    b"/Length 16 >> >> /StmF /StdCF /StrF /StdCF /O %s /U %s /P -4 >>" % (_KEY, _KEY),
    "AES-256": b"<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 "
    b"/Length 32 >> >> /StmF /StdCF /StrF /StdCF /O <%s> /U <%s> /OE <%s> /UE <%s> "
    b"/Perms <%s> /P -4 >>" % (b"00" * 48, b"00" * 48, b"00" * 32, b"00" * 32, b"00" * 16),
}


def encrypted(dictionary: bytes) -> bytes:
    """A one-page file whose trailer names ``dictionary`` (object 5) as its /Encrypt."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R %s /Contents 4 0 R >>" % PAGE_BOX,
        stream(b"", b"0 0 10 10 re f"),
        dictionary,
    ]
    ident = b"<" + b"ab" * 16 + b">"
    return pdf(objects, b"/Encrypt 5 0 R /ID [%s %s]" % (ident, ident))


def simple_font_text(encoding: bytes, shown: bytes, size: int = 5) -> bytes:
    """``shown`` in Helvetica with ``encoding`` at ``size`` pt (too small for print)."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding %s >>" % encoding
    content = b"BT /H %d Tf 20 100 Td (%s) Tj ET" % (size, shown)
    return one_page(content, b"/Font << /H 5 0 R >>", [font])


def deep_again(levels: int) -> bytes:
    """Page 1 draws a chain of ``levels`` forms; page 2 draws a form that draws the same
    chain, one level deeper (the chain read once for page 1 is reused for page 2)."""
    first_form = 7
    chain = []
    for level in range(levels):
        number = first_form + level
        last = level == levels - 1
        resources = b"" if last else b"/Resources << /XObject << /F %d 0 R >> >>" % (number + 1)
        content = b"0 0 1 1 re f" if last else b"/F Do"
        chain.append(
            stream(b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] " + resources, content)
        )
    wrapper = stream(
        b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] "
        b"/Resources << /XObject << /F %d 0 R >> >>" % first_form,
        b"/F Do",
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R %s /Resources << /XObject << /F %d 0 R >> >> "
        b"/Contents 5 0 R >>" % (PAGE_BOX, first_form),
        b"<< /Type /Page /Parent 2 0 R %s /Resources << /XObject << /G %d 0 R >> >> "
        b"/Contents 6 0 R >>" % (PAGE_BOX, first_form + levels),
        stream(b"", b"/F Do"),
        stream(b"", b"/G Do"),
        *chain,
        wrapper,
    ]
    return pdf(objects)
