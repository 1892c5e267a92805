import { useEffect, useState } from 'react';
import { LessonsIcon } from './icons';
import { deferred, preloadWhenIdle } from './shell/deferred';

/** A lesson as the bar shows it: its title, summary and the text of each step. */
export interface LessonText {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly steps: readonly { readonly text: string }[];
}

/** What the lessons bar needs of a lab (either world): its lessons, the one under way, and the moves. */
export interface LessonsOfLab {
  /**
   * The lab's lessons. Their texts are not on the first load (ARCHITECTURE §7a′): fetched when
   * the browser is first idle, and at once when the list opens or a lesson starts.
   */
  readonly lessons: () => Promise<readonly LessonText[]>;
  readonly lesson: { readonly id: string; readonly step: number } | null;
  startLesson(id: string): Promise<boolean>;
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
}

/** The list and the lesson under way, with their texts: loaded when first shown, fetched when the browser is first idle. */
const LessonView = deferred('lessons', () => import('./LessonView').then((m) => m.LessonView), { when: 'onShow' });

/**
 * Guided lessons (teaching mode), for either world: pick one, then read each narrated step
 * and press Next; every step puts the run where the text speaks about (time travel). The
 * toolbar keeps only the Lessons button, with the list opening over the page under it; the
 * lesson under way is shown in the dock at the side (`LessonUnderWay`), so that it neither
 * pushes the board down nor rearranges the toolbar — or here, when the lab has no dock
 * (`underWayHere`). The first screen carries only the Lessons button (ARCHITECTURE §7a′).
 */
export function LessonsPanel(props: LessonsOfLab & { readonly underWayHere: boolean }) {
  const [listOpen, setListOpen] = useState(false);
  const { lessons, underWayHere, ...rest } = props;
  useEffect(() => preloadWhenIdle(() => Promise.all([LessonView.preload(), lessons()])), [lessons]);
  if (props.lesson !== null && underWayHere) return <LessonView lessons={lessons} {...rest} onStarted={() => setListOpen(false)} />;
  return (
    <section className="lessons" aria-label="Lessons" data-testid="lessons">
      {/* The visible start for a newcomer: the lessons walk each paper's algorithm step by step. */}
      <button type="button" className="lessons-start" data-testid="lessons.open" aria-expanded={listOpen} onClick={() => setListOpen(!listOpen)}>
        <LessonsIcon /> Start here: lessons
      </button>
      {listOpen ? (
        <div className="lessons-popover">
          <LessonView lessons={lessons} {...rest} lesson={null} onStarted={() => setListOpen(false)} />
        </div>
      ) : null}
    </section>
  );
}

/** The lesson under way, in the dock beside the board (nothing when none is). */
export function LessonUnderWay(props: LessonsOfLab) {
  if (props.lesson === null) return null;
  return <LessonView {...props} onStarted={() => {}} />;
}
