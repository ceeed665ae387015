import Foundation
import Testing

/// Documents made to hurt a converter, written by Python (zipfile, zlib) because they are
/// small only compressed: a .docx whose document.xml expands to hundreds of megabytes of
/// text, and a PDF whose pages share one compressed content stream.
enum HostileDocuments {
    /// A valid .docx whose word/document.xml is `megabytes` MB of paragraphs (about
    /// 1.3 MB compressed for 300).
    static func zipBombDocx(at url: URL, megabytes: Int) throws {
        try python(docxBomb, url.path, "\(megabytes)")
    }

    /// A PDF with `megabytes` MB of text: pages of 100 lines, all drawing the same
    /// FlateDecode content stream (under a megabyte for 200 MB of text).
    static func textBombPDF(at url: URL, megabytes: Int) throws {
        try python(pdfBomb, url.path, "\(megabytes)")
    }

    private static func python(_ program: String, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", program] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 could not write the document")
    }

    private static let docxBomb = """
        import sys, zipfile
        out, mb = sys.argv[1], int(sys.argv[2])
        types = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
            'Target="word/document.xml"/></Relationships>')
        paragraph = '<w:p><w:r><w:t>' + 'All work and no play makes the rig a dull appliance. ' * 18 + '</w:t></w:r></w:p>'
        chunk = (paragraph * 1000).encode()
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('[Content_Types].xml', types)
            z.writestr('_rels/.rels', rels)
            with z.open('word/document.xml', 'w', force_zip64=True) as f:
                f.write(b'<?xml version="1.0" encoding="UTF-8"?><w:document '
                        b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
                for _ in range((mb << 20) // len(chunk)): f.write(chunk)
                f.write(b'</w:body></w:document>')
        """

    private static let pdfBomb = """
        import sys, zlib
        out, mb = sys.argv[1], int(sys.argv[2])
        text = b'All work and no play makes the rig a dull appliance. ' * 4
        content = b'BT /F1 0.5 Tf 1.0 TL 5 780 Td\\n' + (b'(' + text + b") '\\n") * 100 + b'ET\\n'
        pages = (mb << 20) // (len(text) * 100) + 1
        stream = zlib.compress(content, 9)
        objects = {1: b'<< /Type /Catalog /Pages 2 0 R >>',
                   3: b'<< /Length %d /Filter /FlateDecode >>\\nstream\\n' % len(stream) + stream + b'\\nendstream',
                   4: b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'}
        for i in range(pages):
            objects[5 + i] = (b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R '
                              b'/Resources << /Font << /F1 4 0 R >> >> >>')
        objects[2] = b'<< /Type /Pages /Kids [' + b' '.join(b'%d 0 R' % (5 + i) for i in range(pages)) + b'] /Count %d >>' % pages
        pdf = bytearray(b'%PDF-1.4\\n')
        offsets = {}
        for n in sorted(objects):
            offsets[n] = len(pdf)
            pdf += b'%d 0 obj\\n' % n + objects[n] + b'\\nendobj\\n'
        xref, count = len(pdf), max(objects) + 1
        pdf += b'xref\\n0 %d\\n0000000000 65535 f \\n' % count
        for n in range(1, count): pdf += b'%010d 00000 n \\n' % offsets[n]
        pdf += b'trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n' % (count, xref)
        open(out, 'wb').write(pdf)
        """
}
