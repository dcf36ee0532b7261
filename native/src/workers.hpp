// A fixed set of worker threads for VecCore (vecpool.hpp): run(fn) calls fn(part) for every part
// 0 .. size()-1 at once, part 0 on the calling thread, and returns when all are done. The pool's
// tables are independent (each has its own state, generators and output rows), so the parts split
// the rows into contiguous ranges and the results do not depend on how many threads there are.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace uno {

class Workers {
public:
    explicit Workers(int parts) : parts_(parts < 1 ? 1 : parts) {
        for (int p = 1; p < parts_; p++) threads_.emplace_back([this, p] { loop(p); });
    }

    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

    ~Workers() {
        {
            std::lock_guard<std::mutex> lk(mu_);
            stop_ = true;
        }
        go_.notify_all();
        for (auto& t : threads_) t.join();
    }

    int size() const { return parts_; }

    // fn(part) for every part; the first exception of a part is rethrown here, after all are done
    void run(const std::function<void(int)>& fn) {
        if (parts_ == 1) {
            fn(0);
            return;
        }
        {
            std::lock_guard<std::mutex> lk(mu_);
            job_ = &fn;
            left_ = parts_ - 1;
            error_ = nullptr;
            gen_++;
        }
        go_.notify_all();
        std::exception_ptr mine;
        try {
            fn(0);
        } catch (...) {
            mine = std::current_exception();
        }
        std::unique_lock<std::mutex> lk(mu_);
        done_.wait(lk, [this] { return left_ == 0; });
        job_ = nullptr;
        if (mine) std::rethrow_exception(mine);
        if (error_) std::rethrow_exception(error_);
    }

private:
    void loop(int part) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lk(mu_);
        for (;;) {
            go_.wait(lk, [this, seen] { return stop_ || gen_ != seen; });
            if (stop_) return;
            seen = gen_;
            const std::function<void(int)>* fn = job_;
            lk.unlock();
            std::exception_ptr err;
            try {
                (*fn)(part);
            } catch (...) {
                err = std::current_exception();
            }
            lk.lock();
            if (err && !error_) error_ = err;
            if (--left_ == 0) done_.notify_one();
        }
    }

    int parts_;
    std::vector<std::thread> threads_;
    std::mutex mu_;
    std::condition_variable go_, done_;
    const std::function<void(int)>* job_ = nullptr;
    int left_ = 0;
    uint64_t gen_ = 0;
    bool stop_ = false;
    std::exception_ptr error_;
};

}  // namespace uno
