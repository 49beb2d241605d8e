// What a scoring call answers when the organisation cannot pay for it (score_sites, over lots or groups).

export interface InsufficientCreditsOutput {
  error: "insufficient_credits";
  required: number;
  available: number;
  detail: string;
}
