// Whether the screen is phone-sized (the width where the header compacts and the panels become a bottom sheet).
import { useEffect, useState } from "react";

/** The one breakpoint the layout switches at; styles.css uses the same width. */
export const PHONE_QUERY = "(max-width: 600px)";

export function usePhone(): boolean {
  const [phone, setPhone] = useState(() => matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const q = matchMedia(PHONE_QUERY);
    const onChange = () => setPhone(q.matches);
    q.addEventListener("change", onChange);
    onChange();
    return () => q.removeEventListener("change", onChange);
  }, []);
  return phone;
}
