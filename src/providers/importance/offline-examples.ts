/**
 * Built-in anchor events for the offline importance scorer ("examples-v1"). General life events,
 * as in the Generative Agents scale, plus everyday work of a software agent, since that is what
 * memstream's agents mostly remember. Changing these lists changes scores: bump the version in
 * the scorer id when you do.
 */
export const BUILTIN_MUNDANE: readonly string[] = [
  "brushed my teeth",
  "made the bed",
  "ate breakfast",
  "took a shower",
  "walked to the kitchen",
  "bought groceries at the store",
  "checked the weather forecast",
  "read the news headlines",
  "fixed a typo in the README",
  "renamed a variable",
  "ran the linter and it passed",
  "updated a comment in the code",
  "updated a dependency to a newer patch version",
  "sat down at the desk",
];

export const BUILTIN_POIGNANT: readonly string[] = [
  "a close family member died",
  "broke up with my partner",
  "got accepted to college",
  "got married",
  "was fired from my job",
  "was diagnosed with a serious illness",
  "a child was born",
  "lost all my savings",
  "production went down and customers could not use the service",
  "the release failed and was rolled back",
  "a security breach leaked user data",
  "the build is broken on the main branch",
  "our home was destroyed in a disaster",
  "the data was lost and could not be recovered",
];
