/* skin_threads.c — CPU skinning on several cores: a fixed pool of POSIX threads.
 *
 * Skinning is embarrassingly parallel: every vertex reads the palette and its own inputs and
 * writes its own outputs. The pool is created once (threads, mutex, condition variables);
 * each call hands every thread one contiguous share of the vertices of all jobs together,
 * wakes the workers, skins share 0 on the calling thread, and waits. Nothing is allocated per
 * call, and shares never overlap (skin_job_run writes only inside its range).
 */
#include "anim.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct SkinWorker {
    SkinThreads *pool;
    int          share;      /* which share of the vertices this thread skins */
    pthread_t    thread;
} SkinWorker;

struct SkinThreads {
    int             thread_count;  /* workers + the caller */
    SkinWorker     *workers;       /* [thread_count - 1] */
    int             started;       /* workers actually running */
    pthread_mutex_t lock;
    pthread_cond_t  wake, finished;
    unsigned        generation;    /* incremented for each call: the workers' signal to start */
    int             busy;          /* workers still skinning this generation */
    bool            quit;
    int             shares;        /* threads used in this generation */
    const SkinJob  *jobs;
    int             job_count;
    long            total;         /* vertices of all jobs */
};

/* Skins share `share` of `shares`: vertices [total * share / shares, total * (share+1) / shares)
 * counted over the jobs one after the other. */
static void skin_share(const SkinThreads *pool, int share)
{
    long begin = pool->total * share / pool->shares, end = pool->total * (share + 1) / pool->shares;
    long offset = 0;
    for (int j = 0; j < pool->job_count && offset < end; j++) {
        long count = pool->jobs[j].vertex_count;
        long first = begin > offset ? begin - offset : 0, last = end - offset < count ? end - offset : count;
        if (first < last) skin_job_run(&pool->jobs[j], (int)first, (int)last);
        offset += count;
    }
}

static void *worker_main(void *argument)
{
    SkinWorker *worker = argument;
    SkinThreads *pool = worker->pool;
    unsigned seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->generation == seen && !pool->quit) pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->quit) break;
        seen = pool->generation;
        bool has_share = worker->share < pool->shares;
        pthread_mutex_unlock(&pool->lock);
        if (has_share) skin_share(pool, worker->share);
        pthread_mutex_lock(&pool->lock);
        if (--pool->busy == 0) pthread_cond_signal(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

SkinThreads *skin_threads_create(int thread_count)
{
    if (thread_count < 1) return NULL;
    SkinThreads *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->thread_count = thread_count;
    pool->workers = calloc((size_t)thread_count, sizeof *pool->workers);
    if (!pool->workers || pthread_mutex_init(&pool->lock, NULL) != 0) {
        free(pool->workers);
        free(pool);
        return NULL;
    }
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (int w = 0; w < thread_count - 1; w++) {
        pool->workers[w] = (SkinWorker){.pool = pool, .share = w + 1};
        if (pthread_create(&pool->workers[w].thread, NULL, worker_main, &pool->workers[w]) != 0) break;
        pool->started++;
    }
    pool->thread_count = pool->started + 1;   /* fewer threads than asked if the system refused some */
    return pool;
}

void skin_threads_destroy(SkinThreads *pool)
{
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int w = 0; w < pool->started; w++) pthread_join(pool->workers[w].thread, NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->finished);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool);
}

int skin_threads_count(const SkinThreads *pool)
{
    return pool ? pool->thread_count : 1;
}

void skin_threads_run(SkinThreads *pool, const SkinJob *jobs, int job_count)
{
    long total = 0;
    for (int j = 0; j < job_count; j++) total += jobs[j].vertex_count > 0 ? jobs[j].vertex_count : 0;
    int shares = pool ? pool->thread_count : 1;
    if (total < (long)SKIN_THREADS_MIN_SHARE * shares) shares = (int)(total / SKIN_THREADS_MIN_SHARE);
    if (shares <= 1) {   /* too small to be worth waking anyone */
        for (int j = 0; j < job_count; j++) skin_job_run(&jobs[j], 0, jobs[j].vertex_count);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->jobs = jobs;
    pool->job_count = job_count;
    pool->total = total;
    pool->shares = shares;
    pool->busy = pool->started;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    skin_share(pool, 0);   /* the caller skins share 0 meanwhile */
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0) pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
