import { defaultProjections } from '../projections/defaultProjections';
import { createBatchTarget, type BatchTarget } from '../runner/applyBatch';
import { EventDispatcher } from '../runner/eventDispatcher';
import { silentProjectorLogger } from '../runner/projectorLogger';
import { readModelTables } from '../schema/readModelTables';

/** The live projector's batch target as the tests apply batches to it: every projection, schema `rm`, the apply lock. */
export function mainBatchTarget(): BatchTarget {
  return createBatchTarget({ tables: readModelTables('rm'), name: 'main', dispatcher: new EventDispatcher(defaultProjections, silentProjectorLogger), applyLock: true });
}
