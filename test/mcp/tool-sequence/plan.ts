import type { Command } from './commands.js';
import {
  planCreateGroup,
  planMoveGroup,
  planDeleteGroup,
  planAssignProducts,
  planUnassignProduct,
} from './group-plans.js';
import type { Model } from './model.js';
import { planCreateProduct, planUpdateProduct, planDeleteProduct } from './product-plans.js';
import { planSetTexts, planDeleteText, planSetFeature, planDeleteFeature } from './text-feature-plans.js';

/** One call ready to run: its arguments, the predicted error, the model change on success. */
export interface Planned {
  tool: string;
  args: Record<string, unknown>;
  expected: string | null;
  /** Applies the success to the model; returns the products whose texts and features to re-read. */
  apply(data: Record<string, unknown>): number[];
  /** Products to re-read after a failure: they must be as they were. */
  touched: number[];
  /**
   * Products the call writes to: where that changes nothing (the same value again), their
   * updatedAt may or may not move (the spec says "every change"); everywhere else it is exact.
   */
  written?: number[];
  /** The same operation over REST, to be sent after a failure: it must fail alike. */
  twin?: { method: string; path: string; body?: unknown };
}

/** Plans a command on the model as it is before the call; `now` is the instant of the call. */
export function plan(model: Model, cmd: Command, now: string): Planned {
  switch (cmd.t) {
    case 'create_product':
      return planCreateProduct(model, cmd, now);
    case 'update_product':
      return planUpdateProduct(model, cmd);
    case 'delete_product':
      return planDeleteProduct(model, cmd);
    case 'set_texts':
      return planSetTexts(model, cmd);
    case 'delete_text':
      return planDeleteText(model, cmd);
    case 'set_feature':
      return planSetFeature(model, cmd);
    case 'delete_feature':
      return planDeleteFeature(model, cmd);
    case 'create_group':
      return planCreateGroup(model, cmd, now);
    case 'move_group':
      return planMoveGroup(model, cmd, now);
    case 'delete_group':
      return planDeleteGroup(model, cmd);
    case 'assign_products':
      return planAssignProducts(model, cmd);
    case 'unassign_product':
      return planUnassignProduct(model, cmd);
  }
}
