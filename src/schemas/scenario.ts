import { Duration } from './duration';
import { ScenarioEntity, type ScenarioPartner } from './scenario-entity';
import { ScenarioInformationRequest } from './scenario-information-request';
import { toJsonPath } from './parse-result';
import { Tin } from './primitives';
import { z } from './zod';

/** A scenario's name, what `X-Mock-Scenario` names. */
export const ScenarioName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, { message: 'must be kebab-case: lower-case letters, digits and dashes, like partner-definitive-error' });

/**
 * A scenario file (`scenarios/*.yaml`): one validation tree scripted on the
 * simulated clock. See docs/scenarios.md for the format with examples.
 */
export const Scenario = z
  .strictObject({
    name: ScenarioName,
    description: z.string().min(1),
    /** TINs that select this scenario on create (like test card numbers); default: the main entity's TIN. */
    tins: z.array(Tin).optional(),
    /** Organization settings the scenario assumes; each one given overrides the organization's for this play. */
    settings: z.strictObject({ child_batches_ready: z.boolean().optional() }).default({}),
    entity: ScenarioEntity,
    information_request: ScenarioInformationRequest.optional(),
    /** Tolerance mode for this scenario's deliveries: fields and values the spec does not list (docs/fidelity.md row 89). */
    tolerance: z.boolean().default(false),
    /** Time from the tree's completion to the consolidated report (consolidated_report_ready). */
    report_after: Duration.default(10_000),
  })
  .superRefine((scenario, context) => {
    const seen = new Map<string, string>();
    const visit = (entity: ScenarioPartner | z.infer<typeof ScenarioEntity>, path: PropertyKey[]) => {
      const at = (...rest: PropertyKey[]) => [...path, ...rest];
      const previous = seen.get(entity.tin);
      if (previous !== undefined)
        context.addIssue({ code: 'custom', path: at('tin'), message: `TIN ${entity.tin} appears twice in the tree (also at ${previous})` });
      seen.set(entity.tin, toJsonPath(at('tin')));

      const types = entity.runs.map((run) => run.type);
      types.forEach((type, index) => {
        if (types.indexOf(type) !== index)
          context.addIssue({ code: 'custom', path: at('runs', index, 'type'), message: `run type ${type} appears twice for this entity` });
      });
      const mustBeRun = (value: string | undefined, where: PropertyKey[]) => {
        if (value !== undefined && !types.includes(value)) {
          context.addIssue({ code: 'custom', path: at(...where), message: `"${value}" is not one of this entity's runs (${types.join(', ')})` });
        }
      };
      entity.alerts.forEach((alert, index) => mustBeRun(alert.raised_by, ['alerts', index, 'raised_by']));
      mustBeRun(entity.partners_discovered_by, ['partners_discovered_by']);

      const partners = entity.partners ?? [];
      if (entity.formation) {
        const country = 'country' in entity && entity.country !== undefined ? entity.country : scenario.entity.country;
        if (country !== 'CL' || entity.category !== 'business') {
          context.addIssue({
            code: 'custom',
            path: at('formation'),
            message: 'formation applies to businesses of the Chilean registry (spec §6 rule 2): the entity must have country CL and category business',
          });
        }
        mustBeRun(entity.formation.source_run, ['formation', 'source_run']);
        const partnerTins = partners.map((partner) => partner.tin);
        entity.formation.stakeholders.forEach((stakeholder, index) => {
          if (!partnerTins.includes(stakeholder.tin)) {
            context.addIssue({
              code: 'custom',
              path: at('formation', 'stakeholders', index, 'tin'),
              message: `${stakeholder.tin} is not the TIN of one of this entity's partners (${partnerTins.join(', ') || 'none'})`,
            });
          }
        });
      }
      partners.forEach((partner, index) => visit(partner, at('partners', index)));
    };
    visit(scenario.entity, ['entity']);

    const request = scenario.information_request;
    if (request) {
      const names = request.items.map((item) => item.name);
      const assigned = new Set<string>();
      request.steps.forEach((step, index) => {
        if (Array.isArray(step.submit)) {
          step.submit.forEach((name, item) => {
            if (!names.includes(name))
              context.addIssue({
                code: 'custom',
                path: ['information_request', 'steps', index, 'submit', item],
                message: `"${name}" is not one of the items (${names.join(', ')})`,
              });
          });
        }
        if (step.assign) assigned.add(step.assign.reviewer_email);
        if (step.complete_assignment !== undefined && !assigned.has(step.complete_assignment)) {
          context.addIssue({
            code: 'custom',
            path: ['information_request', 'steps', index, 'complete_assignment'],
            message: `${step.complete_assignment} is not assigned by an earlier step`,
          });
        }
      });
    }
  });

export type Scenario = z.infer<typeof Scenario>;
/** A scenario as written in a file, before defaults and durations are applied. */
export type ScenarioInput = z.input<typeof Scenario>;
