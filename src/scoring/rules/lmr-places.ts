// Where Chapter 6 of the Housing SEPP 2021 reaches: the stations of Schedule 11 (s 163), the stations of Schedule 12
// whose 800 m is excluded (s 164(1)(k)), and the rule by which the synthetic world designates town centres in place of
// the Department's Town Centres Map. Text read from the in-force SEPP (docs/scoring.md section 5.1).
import { stationKey } from "../tod-stations.ts";

/** Schedule 11: the stations whose 800 m walking distance is a low and mid rise housing area (s 163). */
export const SCHEDULE_11 = {
  clause: "Housing SEPP 2021 s 163, Sch 11",
  commenced: "2025-02-28",
  stations: [
    "Adamstown",
    "Arncliffe",
    "Artarmon",
    "Ashfield",
    "Banksia",
    "Bankstown",
    "Bella Vista",
    "Beverly Hills",
    "Bexley North",
    "Canley Vale",
    "Cardiff",
    "Concord West",
    "Crows Nest",
    "Croydon",
    "Doonside",
    "Dulwich Hill",
    "Flemington",
    "Glenfield",
    "Granville",
    "Gymea",
    "Hamilton",
    "Hills Showground",
    "Homebush",
    "Hornsby",
    "Kellyville",
    "Kensington",
    "Killara",
    "Kingsford Juniors",
    "Kotara",
    "Lidcombe",
    "Lilyfield",
    "Liverpool",
    "Macquarie Park",
    "Marrickville",
    "Meadowbank",
    "Milsons Point",
    "Minto",
    "North Ryde",
    "North Strathfield",
    "Oatley",
    "Penshurst",
    "Petersham",
    "Pymble",
    "Redfern",
    "Regents Park",
    "Roseville",
    "Seven Hills",
    "St Leonards",
    "St Peters",
    "Stanmore",
    "Turrella",
    "UNSW Anzac Parade",
    "Victoria Cross",
    "Wahroonga",
    "Waitara",
    "Waverton",
    "Westmead",
    "Wollstonecraft",
    "Woolooware",
  ],
} as const;

/** Schedule 12: land within 800 m of these stations is outside Chapter 6 (s 164(1)(k)). */
export const SCHEDULE_12 = {
  clause: "Housing SEPP 2021 s 164(1)(k), Sch 12",
  commenced: "2025-02-28",
  radiusM: 800,
  stations: ["Cockle Creek", "Punchbowl", "Wiley Park"],
} as const;

/**
 * The Town Centres Map is not in the packs: the synthetic world designates a centre by this rule (docs/design.md
 * section 10). The Department maps as a town centre E1, E2 or MU1 land holding a wide range of frequently needed goods
 * and services, such as a full-line supermarket, shops and restaurants; a full-line supermarket (3,000 to 4,500 m² of
 * floor) with its parking and a strip of specialty shops needs about a hectare of land, which a corner shop or a
 * short strip of shops (a few lots, under half a hectare) never has.
 */
export const TOWN_CENTRE_RULE = {
  clause: "Housing SEPP 2021 s 163, Town Centres Map",
  zones: ["E1", "E2", "MU1"],
  /** The least area of one cluster of centre-zoned lots, m². */
  minAreaM2: 10_000,
  /** Centre land this close (across a street) is one cluster, m. */
  joinM: 40,
  confirmed: false,
} as const;

const LISTED = new Set<string>(SCHEDULE_11.stations.map(stationKey));
const SCHEDULE_12_KEYS = new Set<string>(SCHEDULE_12.stations.map(stationKey));

/** Whether a station (named as a pack names it: "Petersham Station") is listed in Schedule 11. */
export function isSchedule11Station(name: string): boolean {
  return LISTED.has(stationKey(name));
}

/** Whether a station is listed in Schedule 12 (its 800 m excluded from Chapter 6). */
export function isSchedule12Station(name: string): boolean {
  return SCHEDULE_12_KEYS.has(stationKey(name));
}
