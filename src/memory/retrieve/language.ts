/**
 * Whether a query is English, the one language the ranking's word rules were written for: the
 * time focus (focus.ts: "is / does / used to") and the time filter (time-window.ts: "last June").
 * Elsewhere the formula alone ranks: a German "Was ist …?" read by English rules is a past-tense
 * question ("was"), and a Japanese question matches none of them. Deterministic and cheap:
 * - letters mostly outside the Latin script (CJK, Cyrillic, Arabic, …): not English;
 * - Latin letters: English unless another language's function words outnumber English ones
 *   (German, French, Spanish, Italian, Dutch, Portuguese) or tie with them; a query without any ("alice party")
 *   counts as English, the rules then find nothing to read in it anyway.
 */
export type QueryLanguage = "en" | "other";

const ENGLISH = new Set(
  "the a an is are was were be been do does did has have had what who whom whose where when why how which of to in on at for with from by and or not this that these those it its he she they them his her their my your our you i we can will would should".split(
    " ",
  ),
);

const OTHER = new Set(
  [
    // German
    "der die das den dem des ein eine einen einem ist sind war waren wer wie wo wann warum welche welcher hat haben hatte und oder nicht mit von zu auf für ich du er sie wir ihr sein seine ihre jetzt noch schon auch",
    // French
    "le la les un une des est sont était qui que quoi où quand pourquoi comment quel quelle et ou pas avec pour dans sur je tu il elle nous vous ils elles son sa ses leur maintenant encore",
    // Spanish and Portuguese
    "el los las unos unas es son era fue quién quien qué dónde donde cuándo cuando cómo por qué y o no con para en su sus ahora todavía ainda onde quem como é são foi não com uma um os",
    // Italian and Dutch
    "il lo gli è sono era chi che cosa dove quando perché come e non con per di het een is zijn was wie wat waar wanneer waarom hoe en niet met voor van op ik jij hij zij wij nu nog",
  ]
    .join(" ")
    .split(" ")
    .filter((w) => !ENGLISH.has(w)),
);

export function queryLanguage(text: string | undefined): QueryLanguage {
  const q = text?.trim() ?? "";
  const letters = q.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return "en";
  const latin = letters.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  if (latin < letters.length / 2) return "other";
  const words = q.toLowerCase().match(/\p{L}+/gu) ?? [];
  let en = 0;
  let other = 0;
  for (const w of words) {
    if (ENGLISH.has(w)) en++;
    else if (OTHER.has(w)) other++;
  }
  // A tie goes to the other language: "Was ist …?" shares "was" with English.
  return other > 0 && other >= en ? "other" : "en";
}

/** The word rules that ran for a query (the answer's `ranking.rules`). */
export type RankingRules = {
  language: QueryLanguage;
  focus: boolean;
  timeFilter: boolean;
  subjects: boolean;
};
