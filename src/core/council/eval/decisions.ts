/*
 * The eval's fixed decision questions: each a real trade-off a team brings to a council, with the rubric a person
 * judges both answers by. Fixed, so reports from different models and versions can be compared.
 */

export interface Decision {
  readonly id: string;
  readonly question: string;
  /** What the team told the council (the tool's `context`); the single prompt gets the same text. */
  readonly context: string;
  /** What a good answer does, as a person checks it. */
  readonly rubric: readonly string[];
}

/** Every answer is judged on these too. */
export const COMMON_RUBRIC: readonly string[] = [
  'Gives one clear recommendation',
  'States the assumptions it rests on',
  'Says what would change the recommendation',
];

export const DECISIONS: readonly Decision[] = [
  {
    id: 'sessions',
    question: 'Should our web API use stateless JWTs or server-side sessions?',
    context:
      'One region, 10k daily users, a Node.js monolith, Redis already in use for caching; admins must be able to log a user out at once.',
    rubric: [
      'Addresses immediate revocation (the admin log-out requirement)',
      'Weighs token theft and lifetime',
      'Uses what the team already runs (Redis)',
    ],
  },
  {
    id: 'queue',
    question: 'Queue or cron for the nightly export of 2 million rows to a partner SFTP server?',
    context:
      'The export takes about 40 minutes today and fails about once a week on network errors; the partner needs the file by 6 am.',
    rubric: [
      'Handles retries and partial failure',
      'Meets the 6 am deadline with margin',
      'Keeps the operational cost proportionate',
    ],
  },
  {
    id: 'monorepo',
    question: 'Should we merge our 6 service repositories into one monorepo?',
    context: '12 engineers, TypeScript everywhere, shared types copied between repos, CI takes 8 minutes per repo.',
    rubric: [
      'Addresses the copied shared types',
      'Considers CI time and selective builds',
      'Names the migration cost and a reversible first step',
    ],
  },
  {
    id: 'secrets',
    question: 'How should a small team store production secrets for 3 services on one cloud provider?',
    context:
      'Today they are in a shared .env file in a private repository; 4 engineers have access; one contractor left last month.',
    rubric: [
      'Treats the leaked-access risk (rotation after the contractor left)',
      "Uses the provider's secret store or an equivalent",
      'Keeps local development workable',
    ],
  },
  {
    id: 'rewrite',
    question: 'Rewrite our 8-year-old PHP billing module in Go, or refactor it in place?',
    context: 'The module has few tests, handles 30k invoices a month, and two of three people who knew it have left.',
    rubric: [
      'Secures behaviour first (tests, characterization)',
      'Weighs the risk of a big-bang rewrite of billing',
      'Names an incremental path (strangler or module by module)',
    ],
  },
];
