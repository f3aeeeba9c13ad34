import { OrganizationSettings, OrganizationOAuthConfig } from './config';
import { idOf } from './ids';
import { outbound } from './outbound';
import { z } from './zod';

/**
 * What the control API (`/_mock/...`) answers: the shapes of `openapi/control.yaml`, of the typed client in
 * `bvs-mock/testing`, and of what bvs-mock's own modules return for them (their types are inferred from
 * here). Published open like every answer, so a client generated from the document tolerates fields added later.
 * This file holds the answers about scenarios, organizations and single validations; the others are grouped by
 * area beside it: clock-answers.ts (clock, health, reset), delivery-answers.ts (events, endpoints, deliveries),
 * fault-answers.ts, receiver-check-answers.ts, report-answers.ts (request journal, contract report), and
 * page-cursor.ts (the fields every page ends with).
 */

const organization = { organization_id: z.string().optional() };

/** A scenario as `GET /_mock/scenarios` lists it. */
export const ScenarioListing = outbound(
  z.strictObject({
    name: z.string(),
    description: z.string(),
    tins: z.array(z.string()).openapi({ description: 'The TINs that select it on create.' }),
    source: z.string().openapi({
      description:
        '`built-in scenarios/NAME.yaml` for a scenario of the package, the file it came from as its directory was given (`--scenarios`), or how it was added at run time.',
    }),
    built_in: z.boolean(),
  }),
  'ScenarioListing',
);

export const ScenarioList = outbound(z.strictObject({ scenarios: z.array(ScenarioListing) }), 'ScenarioList');

/** `PATCH /_mock/organizations/{id}/settings`: the settings to change, each left out kept. */
export const OrganizationSettingsPatch = z.strictObject({
  ...organization,
  child_batches_ready: z.boolean().optional(),
  legacy_webhook_token: z.string().min(1).optional(),
  oauth: OrganizationOAuthConfig.optional(),
});

/** The organization's settings after a change; stored secrets answered as `<set>` (docs/fidelity.md). */
export const OrganizationSettingsAnswer = outbound(
  z.strictObject({ organization_id: z.string(), settings: OrganizationSettings }),
  'OrganizationSettingsAnswer',
);

export const SettledAnswer = outbound(z.strictObject({ entity_validation_id: idOf('evl'), settled: z.boolean() }), 'SettledAnswer');

export const InputSuppliedAnswer = outbound(z.strictObject({ data_source_run_id: idOf('dsr'), status: z.literal('input_supplied') }), 'InputSuppliedAnswer');

export type ScenarioListing = z.infer<typeof ScenarioListing>;
