import { useEffect, useId, useRef } from 'react';
import type { LessonsOfLab } from './LessonBar';
import { now, useLoaded } from './shell/deferred';

/**
 * The lessons bar's list (no lesson under way) or the lesson under way, step by step
 * (`LessonBar.tsx` loads it when first shown). `onStarted`: a lesson was picked from the list.
 */
export function LessonView({ lessons: load, lesson, onStarted, ...act }: LessonsOfLab & { readonly onStarted: () => void }) {
  const lessons = useLoaded(load, now);
  const headingId = useId();
  const current = lesson === null ? undefined : lessons?.find((l) => l.id === lesson.id);
  const next = useRef<HTMLButtonElement>(null);
  const shownId = current?.id ?? null;
  // A lesson that starts takes the focus to its Next button, so the keyboard goes on from there.
  useEffect(() => {
    if (shownId !== null) next.current?.focus();
  }, [shownId]);
  if (lessons === null) {
    return (
      <p className="lesson-list subtle" role="status">
        Loading the lessons…
      </p>
    );
  }
  if (lesson === null) {
    return (
      <ul className="lesson-list">
        {lessons.map((l) => (
          <li key={l.id}>
            <button
              type="button"
              data-testid={`lessons.start-${l.id}`}
              onClick={() => {
                onStarted();
                void act.startLesson(l.id);
              }}
            >
              {l.title}
            </button>{' '}
            <span className="subtle">{l.summary}</span>
          </li>
        ))}
      </ul>
    );
  }
  if (current === undefined) return null;
  const last = lesson.step === current.steps.length - 1;
  return (
    <section className="lessons lesson-active panel" aria-labelledby={headingId} data-testid="lesson" data-lesson={current.id} data-step={lesson.step}>
      <h2 id={headingId}>
        {current.title}{' '}
        <span className="subtle" data-testid="lesson.progress">
          — step {lesson.step + 1} of {current.steps.length}
        </span>
      </h2>
      <p className="lesson-text" data-testid="lesson.text" aria-live="polite">
        {current.steps[lesson.step]!.text}
      </p>
      <div className="lesson-buttons">
        <button type="button" data-testid="lesson.back" disabled={lesson.step === 0} onClick={() => void act.lessonStep(lesson.step - 1)}>
          ◂ Back
        </button>
        <button type="button" ref={next} data-testid={last ? 'lesson.end' : 'lesson.next'} onClick={() => (last ? act.endLesson() : void act.lessonStep(lesson.step + 1))}>
          {last ? 'Finish the lesson' : 'Next ▸'}
        </button>
        {last ? null : (
          <button type="button" data-testid="lesson.exit" onClick={() => act.endLesson()}>
            Leave the lesson
          </button>
        )}
      </div>
    </section>
  );
}
