// The PDF as a whole: fonts, pages with running header and footer, fixed metadata, reproducible bytes.
import { PDFContentStream, PDFDocument, PDFHexString, PDFRawStream, StandardFonts } from "pdf-lib";
import { longDate, usesDemoData, type ReportModel } from "../model.ts";
import { Canvas, type Fonts } from "./canvas.ts";
import { BODY_BOTTOM, BODY_TOP, COLOR, MARGIN_X, PAGE_H, PAGE_W, SIZE } from "./style.ts";

export const PRODUCER = "Geospatial Assessment Service report renderer (pdf-lib 1.17.1)";

/** A page being filled from the top: `y` is the next baseline; `need` starts a new page when space runs out. */
export class Flow {
  canvas: Canvas;
  y = BODY_TOP;
  private readonly pdf: ReportPdf;
  private readonly continued: string;

  constructor(pdf: ReportPdf, continued: string) {
    this.pdf = pdf;
    this.continued = continued;
    this.canvas = pdf.addPage();
  }

  /** Makes room for `height` points, continuing on a new page (with a "continued" heading) if needed. */
  need(height: number): Canvas {
    if (this.y - height < BODY_BOTTOM) {
      this.canvas = this.pdf.addPage();
      this.y = BODY_TOP;
      this.canvas.text(`${this.continued} (continued)`, MARGIN_X, this.y, {
        size: SIZE.h2,
        font: "bold",
        color: COLOR.muted,
      });
      this.y -= 22;
    }
    return this.canvas;
  }
}

export class ReportPdf {
  private readonly canvases: Canvas[] = [];

  readonly doc: PDFDocument;
  readonly fonts: Fonts;
  readonly model: ReportModel;

  private constructor(doc: PDFDocument, fonts: Fonts, model: ReportModel) {
    this.doc = doc;
    this.fonts = fonts;
    this.model = model;
  }

  static async create(model: ReportModel): Promise<ReportPdf> {
    // No automatic metadata: pdf-lib would stamp the current time and its own producer.
    const doc = await PDFDocument.create({ updateMetadata: false });
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    };
    return new ReportPdf(doc, fonts, model);
  }

  get pageCount(): number {
    return this.canvases.length;
  }

  addPage(): Canvas {
    const canvas = new Canvas(this.doc, this.doc.addPage([PAGE_W, PAGE_H]), this.fonts);
    this.canvases.push(canvas);
    return canvas;
  }

  /** Starts a flowing section on a new page. */
  flow(continuedTitle: string): Flow {
    return new Flow(this, continuedTitle);
  }

  private runningHeadAndFoot(canvas: Canvas, n: number, total: number): void {
    const m = this.model;
    const demo = usesDemoData(m);
    if (n > 1) {
      const head = m.location ? `${m.title} \u2014 ${m.location}` : m.title;
      canvas.text(head, MARGIN_X, PAGE_H - 40, { size: SIZE.small, color: COLOR.muted, maxWidth: 360 });
      canvas.text(longDate(m.date), PAGE_W - MARGIN_X, PAGE_H - 40, {
        size: SIZE.small,
        color: COLOR.muted,
        align: "right",
      });
      canvas.line(MARGIN_X, PAGE_H - 48, PAGE_W - MARGIN_X, PAGE_H - 48);
    }
    canvas.line(MARGIN_X, 46, PAGE_W - MARGIN_X, 46);
    canvas.text(`Screening assessment, not planning advice \u00B7 Report ${m.reportId.slice(0, 8)}`, MARGIN_X, 34, {
      size: SIZE.tiny,
      color: COLOR.muted,
    });
    if (demo)
      canvas.text("DEMO DATA \u2014 NOT FOR DECISIONS", PAGE_W / 2 + 20, 34, {
        size: SIZE.tiny,
        font: "bold",
        color: COLOR.amber,
        align: "center",
      });
    canvas.text(`Page ${n} of ${total}`, PAGE_W - MARGIN_X, 34, {
      size: SIZE.small,
      color: COLOR.muted,
      align: "right",
    });
  }

  /** Numbers the pages, fixes the metadata and serialises: the same model gives the same bytes. */
  async finish(): Promise<Uint8Array> {
    const total = this.canvases.length;
    for (const [i, c] of this.canvases.entries()) this.runningHeadAndFoot(c, i + 1, total);
    const m = this.model;
    const when = new Date(`${m.date}T00:00:00Z`);
    // Metadata is UTF-16: any script survives there, only control characters are dropped.
    const plain = (s: string) => s.replace(/\p{Cc}/gu, " ");
    this.doc.setTitle(plain(m.location ? `${m.title}: ${m.location}` : m.title));
    this.doc.setSubject(
      plain(
        `Feasibility screening of ${m.ranking.ranked.length + m.ranking.unresolved.length} sites for ${m.organisation}`,
      ),
    );
    this.doc.setAuthor("Geospatial Assessment Service");
    this.doc.setCreator("Geospatial Assessment Service");
    this.doc.setProducer(PRODUCER);
    this.doc.setKeywords([
      "feasibility",
      "site assessment",
      m.modelVersion,
      ...m.packs.map((p) => `${p.id}@${p.version}`),
    ]);
    this.doc.setCreationDate(when);
    this.doc.setModificationDate(when);
    // A file identifier derived from the input, not from randomness, keeps the bytes reproducible.
    const id = PDFHexString.of(m.digest.slice(0, 32).padEnd(32, "0"));
    this.doc.context.trailerInfo.ID = this.doc.context.obj([id, id]);
    await this.deflateContents();
    return this.doc.save({ useObjectStreams: true });
  }

  // pdf-lib deflates page contents in JavaScript; the runtime's native zlib does the same job far faster.
  private async deflateContents(): Promise<void> {
    const { context } = this.doc;
    for (const [ref, obj] of context.enumerateIndirectObjects()) {
      if (!(obj instanceof PDFContentStream)) continue;
      const compressed = await deflate(obj.getUnencodedContents());
      // The dictionary already names /FlateDecode; the raw stream's length is set when written.
      context.assign(ref, PDFRawStream.of(obj.dict, compressed));
    }
  }
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
