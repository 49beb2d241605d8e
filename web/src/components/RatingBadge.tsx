// A rating shown by colour and by word (colour alone would fail colour-blind readers).
import type { Rating } from "../api.ts";
import { RATING_COLOURS } from "../map/style.ts";

export function RatingBadge({ rating }: { rating: Rating }) {
  return (
    <span className="badge" style={{ background: RATING_COLOURS[rating] }}>
      {rating}
    </span>
  );
}
