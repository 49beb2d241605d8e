// The floor space a form may have: its FSR's, within what its height holds (a share of the site for low-rise forms,
// the Apartment Design Guide's envelope for apartments), each step shown with its figures.
import { FRONT_SETBACK_M } from "./constants.ts";
import { apartmentEnvelope, lowRiseCapM2 } from "./envelope.ts";
import { formatArea, formatMetres, roundTo } from "./format.ts";
import { fsrText, lowRiseCapText, type Shown, storeysText } from "./option-text.ts";
import { BUILDING_SEPARATION } from "./rules/apartment-design-guide.ts";
import type { StoreyLimit } from "./rules/housing-sepp.ts";
import type { YieldLimit } from "./types.ts";

export interface FloorSpace {
  /** The floor space allowed, whole m²; null when neither an FSR nor a height bounds it. */
  gfaM2: number | null;
  storeys: number | null;
  limitedBy: YieldLimit | null;
  /** The sums, e.g. "FSR 0.80:1: 500 m² × 0.80:1 = 400 m²; 9.5 m = 2 storeys ... = 500 m²; floor space 400 m²". */
  text: string;
}

// "FSR 0.80:1: 500 m² × 0.80:1 = 400 m²"
const fsrPart = (s: Shown, label: string, fsr: number, gfa: number): string => {
  const f = fsrText(fsr);
  return `${label} ${f}: ${s.aText} × ${f} = ${formatArea(gfa)}`;
};

/** Low-rise forms: the FSR's floor space within the storeys the height allows over the share of the site they cover. */
export function lowRiseFloor(
  s: Shown,
  fsr: number | null,
  fsrLabel: string,
  heightM: number | null,
  storeys: number | null,
): FloorSpace {
  const byFsr = fsr === null ? null : roundTo(s.a * fsr);
  const cap = lowRiseCapM2(s.a, storeys);
  const parts: string[] = [];
  if (byFsr !== null && fsr !== null) parts.push(fsrPart(s, fsrLabel, fsr, byFsr));
  if (cap !== null && heightM !== null && storeys !== null) parts.push(lowRiseCapText(s, heightM, storeys, cap));
  if (byFsr === null && cap === null) return { gfaM2: null, storeys, limitedBy: null, text: "" };
  const envelopeBinds = cap !== null && (byFsr === null || cap < byFsr);
  const gfa = envelopeBinds ? (cap as number) : (byFsr as number);
  if (parts.length > 1) parts.push(`floor space ${formatArea(gfa)}`);
  return { gfaM2: gfa, storeys, limitedBy: envelopeBinds ? "envelope" : "fsr", text: parts.join("; ") };
}

// "6 m to the 4th storey, 9 m to the 8th and 12 m above"
function separationText(storeys: number): string {
  const parts: string[] = [];
  let from = 1;
  for (const b of BUILDING_SEPARATION.bands) {
    if (from > storeys) break;
    const to = b.upToStoreys === null ? storeys : Math.min(b.upToStoreys, storeys);
    parts.push(
      to >= storeys
        ? `${formatMetres(b.setbackM)}${from === 1 ? "" : " above"}`
        : `${formatMetres(b.setbackM)} to storey ${to}`,
    );
    from = to + 1;
  }
  return parts.join(", ");
}

export interface ApartmentFloorInput {
  s: Shown;
  fsr: number;
  fsrLabel: string;
  /** The height relied on (null: none mapped). */
  heightM: number | null;
  /** The storeys the height allows, and those counted after any storey limit of the policy. */
  heightStoreys: number | null;
  storeys: number | null;
  /** The policy's storey limit when it bound the storeys. */
  storeyLimit: StoreyLimit | null;
}

/** Apartments: the FSR's floor space within the Apartment Design Guide's envelope of the storeys the height allows. */
export function apartmentFloor(i: ApartmentFloorInput): FloorSpace {
  const { s, fsr } = i;
  const byFsr = roundTo(s.a * fsr);
  const env = apartmentEnvelope(s.w, s.d, 1, i.storeys, byFsr);
  const envelopeBinds = env.floorM2 < byFsr;
  const gfa = envelopeBinds ? env.floorM2 : byFsr;
  const height =
    i.heightM === null
      ? `no height mapped: ${env.storeys} storeys for the floor space`
      : storeysText(i.heightM, i.heightStoreys ?? env.storeys) +
        (i.storeyLimit === null ? "" : `, at most ${i.storeyLimit.storeys} by ${i.storeyLimit.clause}`);
  const envelope =
    env.storeys === 0
      ? `${height} = 0 m²`
      : `${height}, ${s.wText} wide and ${s.dText} deep inside a ${formatMetres(FRONT_SETBACK_M)} front setback and side and rear setbacks of ${separationText(env.storeys)} (${BUILDING_SEPARATION.clause}) = ${formatArea(env.floorM2)}`;
  return {
    gfaM2: gfa,
    storeys: env.storeys,
    limitedBy: envelopeBinds ? "envelope" : "fsr",
    text: `${fsrPart(s, i.fsrLabel, fsr, byFsr)}; ${envelope}; floor space ${formatArea(gfa)}`,
  };
}

export interface ShopTopFloor extends FloorSpace {
  /** Ground floor shops or offices, whole m². */
  commercialM2: number;
  /** Floor space left for housing above, whole m². */
  residentialM2: number;
}

/**
 * Shop top housing: shops or offices over the ground floor, housing above in the storeys the height leaves, built to the
 * side boundaries and the street with the Apartment Design Guide's rear separation, the whole within the FSR.
 * `above` is the residential storeys the height allows over the ground floor (-1: not even the ground floor fits).
 */
export function shopTopFloor(
  s: Shown,
  fsr: number,
  fsrLabel: string,
  heightM: number | null,
  above: number | null,
  ground: { text: string; storeyM: number; roofM: number },
): ShopTopFloor {
  const byFsr = roundTo(s.a * fsr);
  if (above !== null && above < 0) {
    const text = `${fsrPart(s, fsrLabel, fsr, byFsr)}; ${formatMetres(heightM ?? 0)} holds no ${ground.text}`;
    return { gfaM2: 0, storeys: 0, limitedBy: "envelope", text, commercialM2: 0, residentialM2: 0 };
  }
  const commercial = Math.min(s.a, byFsr);
  const left = byFsr - commercial;
  const env = apartmentEnvelope(s.w, s.d, 2, above === null ? null : 1 + above, left, false);
  const envelopeBinds = env.floorM2 < left;
  const residential = envelopeBinds ? env.floorM2 : left;
  const height =
    heightM === null
      ? `no height mapped: ${env.storeys} storeys above for the floor space`
      : `${formatMetres(heightM)} less the ${formatMetres(ground.storeyM)} ground floor and ${formatMetres(ground.roofM)} for the roof = ${env.storeys} storey${env.storeys === 1 ? "" : "s"} above`;
  const envelope =
    env.storeys === 0
      ? `${height} = 0 m²`
      : `${height}, built to the sides and the street with a rear setback of ${separationText(1 + env.storeys)} (${BUILDING_SEPARATION.clause}) = ${formatArea(env.floorM2)}`;
  const text = `${fsrPart(s, fsrLabel, fsr, byFsr)}; ${ground.text} ${formatArea(commercial)}, ${formatArea(left)} left for housing; ${envelope}; housing ${formatArea(residential)}`;
  return {
    gfaM2: commercial + residential,
    storeys: 1 + env.storeys,
    limitedBy: envelopeBinds ? "envelope" : "fsr",
    text,
    commercialM2: commercial,
    residentialM2: residential,
  };
}
