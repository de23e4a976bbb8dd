// CRD lifecycle: serve the resource on create, mark Established, and tear down instances on delete.
import type { Core } from './core.ts';
import { nowIso, obj } from './json.ts';
import { defFromCrd } from './resources.ts';
import type { KObj } from './types.ts';
import { storeKey } from './types.ts';

const CRD_KEY = 'apiextensions.k8s.io/customresourcedefinitions';

function established(crd: KObj): KObj {
  const t = nowIso();
  const names = obj(obj(crd.spec).names);
  return {
    ...crd,
    metadata: { ...crd.metadata },
    status: {
      ...obj(crd.status),
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          lastTransitionTime: t,
          reason: 'NoConflicts',
          message: 'no conflicts found',
        },
        {
          type: 'Established',
          status: 'True',
          lastTransitionTime: t,
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
      ],
      acceptedNames: names,
    },
  };
}

export function installCrdHooks(core: Core): void {
  const crdDef = core.registry.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  if (!crdDef) return;
  core.afterWrite.set(CRD_KEY, (o, prev) => {
    const name = String((o ?? prev)?.metadata.name ?? '');
    if (!o) {
      core.registry.setCrd(name, undefined);
      return;
    }
    core.registry.setCrd(name, defFromCrd(o));
    if (!prev && o.status && obj(o.status).conditions === null) {
      const establish = () => {
        const cur = core.get(crdDef, '', name);
        if (cur && obj(cur.status).conditions === null) core.write(crdDef, established(cur), cur);
      };
      const delay = core.options.crdEstablishDelayMs ?? 0;
      if (delay > 0) setTimeout(establish, delay).unref();
      else queueMicrotask(establish);
    }
  });
  core.deleteHooks.set('customresourcedefinitions', (prev) => {
    const name = String(prev.metadata.name);
    const st = obj(prev.status);
    const conds = Array.isArray(st.conditions) ? st.conditions : [];
    const terminating: KObj = {
      ...prev,
      metadata: {
        ...prev.metadata,
        deletionTimestamp: nowIso(),
        finalizers: ['customresourcecleanup.apiextensions.k8s.io'],
      },
      status: {
        ...st,
        conditions: [
          ...conds,
          {
            type: 'Terminating',
            status: 'True',
            lastTransitionTime: nowIso(),
            reason: 'InstanceDeletionPending',
            message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
          },
        ],
      },
    };
    const { obj: written } = core.write(crdDef, terminating, prev);
    setImmediate(() => {
      const def = defFromCrd(prev);
      if (def) {
        for (const cr of core.store.list(storeKey(def))) core.remove(def, cr);
        core.store.dropResource(storeKey(def));
      }
      const cur = core.get(crdDef, '', name);
      if (cur) core.remove(crdDef, cur);
    });
    return written;
  });
  const nsDef = core.registry.find('', 'v1', 'namespaces');
  if (!nsDef) return;
  core.deleteHooks.set('namespaces', (prev) => {
    const name = String(prev.metadata.name);
    const terminating: KObj = {
      ...prev,
      metadata: { ...prev.metadata, deletionTimestamp: nowIso() },
      status: { ...obj(prev.status), phase: 'Terminating' },
    };
    const { obj: written } = core.write(nsDef, terminating, prev);
    setImmediate(() => {
      for (const def of core.registry.all().filter((d) => d.namespaced)) {
        for (const o of core.store.list(storeKey(def)))
          if (o.metadata.namespace === name) core.remove(def, o);
      }
      const cur = core.get(nsDef, '', name);
      if (cur) core.remove(nsDef, cur);
    });
    return written;
  });
}
