import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { layerColour } from '../../../charts/palette';
import { describeMode } from '../engine/profiles/modeLabels';
import { INTERFERENCE_MODE_IDS, MODE_IDS, type InterferenceModeId } from '../engine/profiles/types';
import { stepConfiguration } from '../schedulers/teaching';
import type { PipelineEventView } from '../worker/pipelineProtocol';
import { DragDropArea, useDraggable, useDroppable, type DragAnnouncements, type DragItem } from '../../../ui/dragDrop';
import { usePipelineLab, usePipelineStore } from './pipelineContext';

/** Height of a layer block row, px, when the column has room for it. */
const ROW_PX = 22;

/**
 * Height of the area where a column stacks its layer blocks, px: room for one and a half
 * balanced stages, within 120–300 px; a column that holds more (a scheduler may pile layers
 * onto one EP) draws its rows thinner. It depends only on the scenario, so the page does not
 * jump while layers move, and it leaves the main chart room on the first screen.
 */
export function blocksHeight(units: number, executionPlaces: number): number {
  return Math.max(120, Math.min(300, ROW_PX * (Math.ceil((1.5 * units) / Math.max(1, executionPlaces)) + 1)));
}

type DragData = { kind: 'mode'; mode: InterferenceModeId } | { kind: 'event'; event: PipelineEventView };

const modeLabel = (mode: string): string => `${mode}: ${describeMode(mode as InterferenceModeId)}`;

const announcements: DragAnnouncements = {
  start: (item) => `Picked up ${dragName(item.data as DragData | undefined)}. Use the arrow keys to choose an execution place, space to drop it there, escape to cancel.`,
  over: (target) => (target ? `Over ${target.id.replace('ep-', 'execution place ').replace(/(\d+)$/, (d) => String(Number(d) + 1))}.` : 'Not over an execution place.'),
  drop: (_item, target) => (target ? 'Dropped.' : 'Dropped outside the board: removed.'),
  cancel: () => 'Cancelled.',
};

function dragName(data: DragData | undefined): string {
  if (data === undefined) return 'an item';
  return data.kind === 'mode' ? `workload ${modeLabel(data.mode)}` : `workload ${data.event.mode} on EP ${data.event.executionPlace + 1}`;
}

/** A palette token: one co-located workload of the ODIN paper's Table 1. */
function ModeToken({ mode }: { readonly mode: InterferenceModeId }) {
  const { attributes, listeners, style, isDragging } = useDraggable({ id: `mode-${mode}`, data: { kind: 'mode', mode } satisfies DragData });
  return (
    <button
      type="button"
      className={`token mode-${mode}${isDragging ? ' dragging' : ''}`}
      data-testid={`palette.mode-${mode}`}
      style={style}
      {...attributes}
      {...listeners}
      title="Drag onto an execution place (keyboard: space, arrows, space)"
    >
      <span className="token-mode">{mode}</span>
      <span className="token-label">{describeMode(mode)}</span>
    </button>
  );
}

/** A workload placed on an EP: drag it off the board or press × to remove it. */
function EventChip({ event }: { readonly event: PipelineEventView }) {
  const store = usePipelineStore();
  const { attributes, listeners, style } = useDraggable({ id: `event-${event.id}`, data: { kind: 'event', event } satisfies DragData });
  return (
    <span className={`chip mode-${event.mode}`} style={style} data-testid={`board.event-${event.id}`}>
      <button type="button" className="chip-handle" {...attributes} {...listeners} aria-label={`Workload ${modeLabel(event.mode)} on EP ${event.executionPlace + 1}; drag off the board to remove`}>
        {event.mode}
      </button>
      <button type="button" className="chip-remove" onClick={() => void store.getState().removeEvent(event.id)} aria-label={`Remove workload ${event.mode} from EP ${event.executionPlace + 1}`}>
        ×
      </button>
    </span>
  );
}

/** One execution place: its stage's layer blocks, its stage time and its co-located workloads. */
function ExecutionPlace({ index, stageTimeMs, bottleneck, active, modeIndex }: { readonly index: number; readonly stageTimeMs: number; readonly bottleneck: boolean; readonly active: readonly PipelineEventView[]; readonly modeIndex: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: `ep-${index}`, data: { ep: index } });
  const mode = MODE_IDS[modeIndex] ?? 'A';
  return (
    <div ref={setNodeRef} className={`ep${isOver ? ' over' : ''}${bottleneck ? ' bottleneck' : ''}${mode !== 'A' ? ' interfered' : ''}`} data-testid={`board.ep-${index}`} data-mode={mode} aria-label={`Execution place ${index + 1}`}>
      <div className="ep-head">
        <span className="ep-name">
          <abbr title="execution place: the cores that run one stage of the pipeline (ODIN §2)">EP</abbr> {index + 1}
        </span>
        <span className="ep-time" title="stage time of the selected lane">
          {stageTimeMs.toFixed(1)} ms
        </span>
        <span className="ep-chips">
          {active.map((e) => (
            <EventChip key={e.id} event={e} />
          ))}
        </span>
      </div>
    </div>
  );
}

/** The palette doubles as the place to drop a workload to remove it. */
function Palette() {
  const { setNodeRef, isOver } = useDroppable({ id: 'palette' });
  return (
    <div ref={setNodeRef} className={`palette${isOver ? ' over' : ''}`} role="group" aria-label="Co-located workloads (ODIN Table 1)">
      {/* The heading leads the palette's own row, so that the board and the main chart share the first screen (ARCHITECTURE §7a′). */}
      <h3 className="palette-heading">
        Co-located workloads — drag one onto an execution place
        <span className="palette-terms">
          {' '}
          (a <abbr title="memory-bandwidth hog: a program streaming through memory, taking the bandwidth the CNN's layers need (ODIN Table 1)">memBW hog</abbr> takes memory bandwidth, a{' '}
          <abbr title="CPU hog: a program computing on cores the CNN shares, taking their cycles (ODIN Table 1)">CPU hog</abbr> takes cores)
        </span>
        :
      </h3>
      {/* One row that scrolls sideways: the eleven workloads of Table 1 take one line of the first screen, not four. */}
      <div className="palette-tokens">
        {INTERFERENCE_MODE_IDS.map((mode) => (
          <ModeToken key={mode} mode={mode} />
        ))}
      </div>
    </div>
  );
}

/**
 * The board: the execution places as columns with the selected lane's layers as blocks
 * (animated as they move between stages), and the palette of co-located workloads.
 */
export function Board({ showPalette = true }: { readonly showPalette?: boolean } = {}) {
  const store = usePipelineStore();
  const served = usePipelineLab((s) => s.served);
  const events = usePipelineLab((s) => s.events);
  const layers = usePipelineLab((s) => s.layers);
  const selected = usePipelineLab((s) => s.selectedLane);
  const laneLabel = usePipelineLab((s) => s.lanes[s.selectedLane]?.label ?? '');
  const initial = usePipelineLab((s) => s.initialConfiguration);
  // While an algorithm is stepped through, the board shows the configuration of the step (a trial
  // being built or measured) with the stage times the algorithm is looking at.
  const step = usePipelineLab((s) => (s.teaching !== null && s.teaching.lane === selected && s.teaching.cursor >= 0 ? (s.teaching.steps[s.teaching.cursor] ?? null) : null));
  const liveConfiguration = usePipelineLab(useShallow((s) => Array.from(s.live[selected]?.configuration ?? initial)));
  const liveStageTimes = usePipelineLab(useShallow((s) => Array.from(s.live[selected]?.stageTimesMs ?? [], (t) => Math.round(t * 10) / 10)));
  const stepConfig = useMemo(() => (step === null ? null : [...stepConfiguration(step)]), [step]);
  const configuration = stepConfig ?? liveConfiguration;
  const stageTimes = useMemo(() => (step === null ? liveStageTimes : step.stageTimesMs.map((t) => Math.round(t * 10) / 10)), [step, liveStageTimes]);
  const modes = usePipelineLab(useShallow((s) => Array.from(s.modes)));
  const n = configuration.length;
  const bottleneck = stageTimes.length > 0 ? stageTimes.indexOf(Math.max(...stageTimes)) : -1;
  const maxCount = Math.max(1, ...configuration);
  const height = blocksHeight(layers.length || configuration.reduce((a, b) => a + b, 0), n);
  const rowHeight = Math.min(ROW_PX, height / maxCount);
  const blocks = useMemo(() => {
    const out: { layer: number; stage: number; row: number }[] = [];
    let layer = 0;
    configuration.forEach((count, stage) => {
      for (let row = 0; row < count; row++) out.push({ layer: layer++, stage, row });
    });
    return out;
  }, [configuration]);
  const activeOn = (ep: number) => events.filter((e) => e.executionPlace === ep && e.fromQuery <= served && (e.toQuery === null || e.toQuery > served));

  const onDrop = (item: DragItem, target: DragItem | null) => {
    const data = item.data as DragData | undefined;
    if (data === undefined) return;
    const ep = (target?.data as { ep?: number } | undefined)?.ep;
    const act = store.getState();
    if (data.kind === 'mode' && ep !== undefined) void act.addEvent(ep, data.mode);
    if (data.kind === 'event' && ep !== data.event.executionPlace) {
      void act.removeEvent(data.event.id).then(() => (ep !== undefined ? act.addEvent(ep, data.event.mode) : undefined));
    }
  };

  return (
    <DragDropArea onDrop={onDrop} announcements={announcements} keyboardTargets="ep-" keyboardWhere="between execution places">
      <h2 id="board-heading">
        Execution places <span className="subtle">— layers of {laneLabel || 'the selected lane'}</span>
      </h2>
      {step === null ? null : (
        <p className="board-step" data-testid="board.step">
          {step.algorithm === 'odin' ? 'ODIN' : 'LLS'} at line {step.line}: the board shows C = [{configuration.join(', ')}]; stage times are t(C) as the algorithm sees them (the last measured configuration).
        </p>
      )}
      <div className="board" style={{ ['--eps' as string]: n, ['--blocks-height' as string]: `${height}px` }} data-testid="board" data-configuration={configuration.join(',')}>
        <div className="ep-row">
          {configuration.map((_, i) => (
            <ExecutionPlace key={i} index={i} stageTimeMs={stageTimes[i] ?? 0} bottleneck={i === bottleneck} active={activeOn(i)} modeIndex={modes[i] ?? 0} />
          ))}
        </div>
        <div className="blocks" aria-hidden="true">
          {blocks.map((b) => (
            <div
              key={b.layer}
              className="block"
              title={layers[b.layer] ?? `unit ${b.layer + 1}`}
              style={{
                left: `calc(${b.stage} * 100% / ${n})`,
                width: `calc(100% / ${n} - 4px)`,
                top: `${b.row * rowHeight}px`,
                height: `${Math.max(2, rowHeight - 2)}px`,
                background: layerColour(b.layer, layers.length || blocks.length),
              }}
            >
              {rowHeight >= 14 && n <= 16 ? layers[b.layer] : null}
            </div>
          ))}
        </div>
      </div>
      {showPalette ? (
        <Palette />
      ) : null}
    </DragDropArea>
  );
}
