/** Deployment-specific anchor events for importance scoring (both the LLM prompt and the offline scorer use them). */
export type ImportanceExamples = {
  /** Events that should score low in this deployment, e.g. "typo fixed in README". */
  mundane: string[];
  /** Events that should score high in this deployment, e.g. "CI failed on main". */
  poignant: string[];
};
