// Drawing on one page: every string is made WinAnsi-safe and fitted before it reaches pdf-lib.
import {
  PDFOperator,
  beginText,
  endText,
  setFontAndSize,
  setTextMatrix,
  showText,
  PDFOperatorNames,
  closePath,
  endPath,
  clip,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setDashPattern,
  setFillingRgbColor,
  setGraphicsState,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  LineJoinStyle,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  type RGB,
} from "pdf-lib";
import { COLOR, SIZE } from "./style.ts";
import { fitText, toWinAnsi, wrapText } from "./text.ts";

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}

export interface TextStyle {
  size?: number;
  font?: keyof Fonts;
  color?: RGB;
  /** Cut with an ellipsis beyond this width. */
  maxWidth?: number;
  align?: "left" | "right" | "center";
}

export interface ShapeStyle {
  fill?: RGB;
  stroke?: RGB;
  lineWidth?: number;
  /** Opacity of the fill (0..1); strokes stay opaque. */
  fillOpacity?: number;
  dash?: number[];
}

export type Ring = [number, number][];

// Two decimals of a point are far below what a printer resolves and keep content streams small.
const r2 = (x: number) => Math.round(x * 100) / 100;

export class Canvas {
  private readonly opacityStates = new Map<number, PDFName>();
  private readonly fontKeys = new Map<PDFFont, PDFName>();

  readonly doc: PDFDocument;
  readonly page: PDFPage;
  readonly fonts: Fonts;

  constructor(doc: PDFDocument, page: PDFPage, fonts: Fonts) {
    this.doc = doc;
    this.page = page;
    this.fonts = fonts;
  }

  /** Width of already-sanitised text. */
  width(text: string, style: TextStyle = {}): number {
    return this.fonts[style.font ?? "regular"].widthOfTextAtSize(text, style.size ?? SIZE.body);
  }

  /** Draws one line of user or computed text at baseline y; returns the width drawn. */
  text(raw: string, x: number, y: number, style: TextStyle = {}): number {
    const font = this.fonts[style.font ?? "regular"];
    const size = style.size ?? SIZE.body;
    let s = toWinAnsi(raw);
    if (style.maxWidth !== undefined) s = fitText(s, font, size, style.maxWidth);
    if (s === "") return 0;
    const w = font.widthOfTextAtSize(s, size);
    const left = style.align === "right" ? x - w : style.align === "center" ? x - w / 2 : x;
    const color = style.color ?? COLOR.ink;
    this.page.pushOperators(
      pushGraphicsState(),
      beginText(),
      setFillingRgbColor(color.red, color.green, color.blue),
      setFontAndSize(this.fontKey(font), size),
      setTextMatrix(1, 0, 0, 1, r2(left), r2(y)),
      showText(font.encodeText(s)),
      endText(),
      popGraphicsState(),
    );
    return w;
  }

  // One resource name per font and page (pdf-lib's drawText would add a new one for every call).
  private fontKey(font: PDFFont): PDFName {
    let key = this.fontKeys.get(font);
    if (!key) {
      key = this.page.node.newFontDictionary(font.name, font.ref);
      this.fontKeys.set(font, key);
    }
    return key;
  }

  /** Wrapped lines of `raw` within `width`, sanitised, at most `maxLines`. */
  wrap(raw: string, width: number, style: TextStyle = {}, maxLines = Infinity): string[] {
    return wrapText(toWinAnsi(raw), this.fonts[style.font ?? "regular"], style.size ?? SIZE.body, width, maxLines);
  }

  /** Draws a wrapped paragraph from baseline y downwards; returns the y below its last line. */
  paragraph(
    raw: string,
    x: number,
    y: number,
    width: number,
    style: TextStyle & { leading?: number; maxLines?: number } = {},
  ): number {
    const leading = style.leading ?? (style.size ?? SIZE.body) * 1.35;
    let yy = y;
    for (const line of this.wrap(raw, width, style, style.maxLines)) {
      this.text(line, x, yy, { ...style, maxWidth: undefined });
      yy -= leading;
    }
    return yy;
  }

  rect(x: number, y: number, w: number, h: number, style: ShapeStyle = {}): void {
    this.page.drawRectangle({
      x: r2(x),
      y: r2(y),
      width: r2(w),
      height: r2(h),
      color: style.fill,
      borderColor: style.stroke,
      borderWidth: style.stroke ? (style.lineWidth ?? 0.75) : 0,
      opacity: style.fillOpacity,
    });
  }

  line(x1: number, y1: number, x2: number, y2: number, color: RGB = COLOR.rule, width = 0.75): void {
    this.page.drawLine({ start: { x: r2(x1), y: r2(y1) }, end: { x: r2(x2), y: r2(y2) }, thickness: width, color });
  }

  circle(x: number, y: number, r: number, style: ShapeStyle = {}): void {
    this.page.drawCircle({
      x: r2(x),
      y: r2(y),
      size: r,
      color: style.fill,
      borderColor: style.stroke,
      borderWidth: style.stroke ? (style.lineWidth ?? 0.75) : 0,
    });
  }

  private opacity(a: number): PDFName {
    const key = Math.round(a * 100);
    let name = this.opacityStates.get(key);
    if (!name) {
      name = this.page.node.newExtGState("GS", this.doc.context.obj({ Type: "ExtGState", ca: key / 100 }));
      this.opacityStates.set(key, name);
    }
    return name;
  }

  /** Fills and/or strokes rings as one path; holes cut out by the even-odd rule whatever their winding. */
  shape(rings: readonly Ring[], style: ShapeStyle): void {
    const path: PDFOperator[] = [];
    for (const ring of rings) {
      if (ring.length < 2) continue;
      for (const [i, [x, y]] of ring.entries()) path.push(i === 0 ? moveTo(r2(x), r2(y)) : lineTo(r2(x), r2(y)));
      path.push(closePath());
    }
    if (path.length === 0) return;
    const ops: PDFOperator[] = [pushGraphicsState(), setLineJoin(LineJoinStyle.Round)];
    // `ca` is the fill's alpha only: a translucent fill keeps an opaque outline in the same path.
    if (style.fill && style.fillOpacity !== undefined && style.fillOpacity < 1)
      ops.push(setGraphicsState(this.opacity(style.fillOpacity)));
    if (style.fill) ops.push(setFillingRgbColor(style.fill.red, style.fill.green, style.fill.blue));
    if (style.stroke) {
      ops.push(
        setStrokingRgbColor(style.stroke.red, style.stroke.green, style.stroke.blue),
        setLineWidth(style.lineWidth ?? 0.75),
      );
      if (style.dash) ops.push(setDashPattern(style.dash, 0));
    }
    const paint =
      style.fill && style.stroke
        ? PDFOperatorNames.FillEvenOddAndStroke
        : style.fill
          ? PDFOperatorNames.FillEvenOdd
          : PDFOperatorNames.StrokePath;
    ops.push(...path, PDFOperator.of(paint));
    ops.push(popGraphicsState());
    this.page.pushOperators(...ops);
  }

  /** Runs `draw` with everything clipped to the rectangle. */
  clipped(x: number, y: number, w: number, h: number, draw: () => void): void {
    this.page.pushOperators(pushGraphicsState(), rectangle(r2(x), r2(y), r2(w), r2(h)), clip(), endPath());
    draw();
    this.page.pushOperators(popGraphicsState());
  }
}
