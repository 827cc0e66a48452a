//! Where layout runs: a thread with a big stack, one per calling thread, kept between pages.
//!
//! Blitz recurses once per nesting level, so layout needs a bigger stack than a caller's thread
//! has ([`LAYOUT_STACK_BYTES`]); a panic in it must be the page's error, not the caller's; and a
//! page past its time budget must stop (`stages`) with nothing of it left running when its
//! call returns. Starting a thread per page did all that but cost 0.15–0.7 ms a page (the fresh
//! stack's page faults, growing with the page's depth); a kept thread pays them once.
//!
//! A page answers as soon as its boxes are read; freeing its document follows on the layout
//! thread, while the caller goes on with the page, and before the thread's next page. A page
//! over its budget is asked to stop and waited for — its answer and the end of its job, freeing
//! included — so when its call returns the thread is idle and is kept. A page whose layout
//! panicked takes its thread along: the thread is told to end, and joined. The thread ends
//! when its calling thread does (its queue closes).

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::NativeLayoutError;
use super::budget::{Answer, answer_within};
use super::stages::StopSignal;

/// Blitz recurses once per nesting level (style, box construction, Taffy), about 2.5 KiB of
/// stack per level: an 8 MiB main-thread stack overflows between 3,000 and 4,000 nested
/// `<div>`s, and a stack overflow aborts the process rather than panicking. `ParseLimits`
/// allows 5,000 levels, so layout runs on a thread with room for several times that; the
/// memory is reserved, and only touched by deep pages.
const LAYOUT_STACK_BYTES: usize = 256 * 1024 * 1024;

/// One page's work.
type Job = Box<dyn FnOnce() + Send>;

/// A thread that runs jobs one after another, with the stack Blitz needs.
struct LayoutThread {
    jobs: mpsc::Sender<Job>,
    thread: JoinHandle<()>,
}

thread_local! {
    /// The calling thread's layout thread, while it is idle or freeing its last page.
    static LAYOUT_THREAD: RefCell<Option<LayoutThread>> = const { RefCell::new(None) };
}

impl LayoutThread {
    fn start() -> Result<LayoutThread, NativeLayoutError> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("blitz-layout".into())
            .stack_size(LAYOUT_STACK_BYTES)
            .spawn(move || queue.into_iter().for_each(|job| job()))
            .map_err(NativeLayoutError::Thread)?;
        Ok(LayoutThread { jobs, thread })
    }

    /// Closes the queue and waits for the thread to end: nothing it ran is running after this.
    fn retire(self) {
        drop(self.jobs);
        let _ = self.thread.join();
    }
}

/// Where a page's work sends its answer: before freeing what it no longer needs, so that the
/// caller does not wait for that.
pub(super) struct Reply<T>(mpsc::Sender<std::thread::Result<T>>);

impl<T> Reply<T> {
    pub(super) fn send(self, answer: T) {
        // The caller may have stopped waiting (the layout thread's own panic after answering).
        let _ = self.0.send(Ok(answer));
    }
}

/// Runs `work` on the calling thread's layout thread (started on first use) and waits at most
/// `budget` for the answer it sends; past the budget, asks it to stop (`work` checks the
/// signal between its stages) and waits for the end of its job. Each page answers on a
/// channel of its own, so no answer can be taken for another page's.
pub(super) fn run_on_layout_thread<T: Send + 'static>(
    work: impl FnOnce(&StopSignal, Reply<T>) + Send + 'static,
    budget: Duration,
) -> Result<Answer<std::thread::Result<T>>, NativeLayoutError> {
    let thread = match LAYOUT_THREAD.take() {
        Some(thread) => thread,
        None => LayoutThread::start()?,
    };
    let (answer, answers) = mpsc::channel();
    let (finished, job_end) = mpsc::channel::<()>();
    let stop = StopSignal::default();
    let job_stop = stop.clone();
    let job: Job = Box::new(move || {
        let panics = answer.clone();
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| work(&job_stop, Reply(answer)))) {
            let _ = panics.send(Err(payload));
        }
        drop(finished);
    });
    if thread.jobs.send(job).is_err() {
        // Only a thread that ended by itself refuses work; the next page starts a new one.
        thread.retire();
        return Ok(Answer::Lost);
    }
    let answer = answer_within(&answers, budget, &stop);
    match &answer {
        Answer::InTime(Ok(_)) => LAYOUT_THREAD.set(Some(thread)),
        Answer::Late(Ok(_)) => {
            // The stopped page's job ends at the end of its stage; the thread is then idle.
            let _ = job_end.recv();
            LAYOUT_THREAD.set(Some(thread));
        }
        Answer::InTime(Err(_)) | Answer::Late(Err(_)) | Answer::Lost => thread.retire(),
    }
    Ok(answer)
}
