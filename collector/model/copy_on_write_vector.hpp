#pragma once
// A vector whose elements are shared between copies until one is written. A snapshot of a fabric
// holds thousands of devices of which a step changes a few: the next snapshot takes the unchanged
// ones from the last by pointer, so publishing costs what changed, not what exists, and two
// consecutive snapshots together hold one copy of an unchanged device.
//
// Reading is as through a std::vector<T> (const T& from [], iteration, front/back). Writing
// through a non-const accessor first makes the element this vector's own if another vector still
// shares it, so a vector never changes what a copy of it sees. Elements are never written through
// a const path, so a published (const) vector can be read from many threads.

#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace rdmadiag {

template <class T>
class CopyOnWriteVector {
    using Slots = std::vector<std::shared_ptr<const T>>;

public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;

    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = const T*;
        using reference = const T&;

        const_iterator() = default;
        explicit const_iterator(typename Slots::const_iterator it) : it_(it) {}

        const T& operator*() const { return **it_; }
        const T* operator->() const { return it_->get(); }
        const T& operator[](difference_type n) const { return *it_[n]; }
        const_iterator& operator++() { return ++it_, *this; }
        const_iterator operator++(int) { return const_iterator(it_++); }
        const_iterator& operator--() { return --it_, *this; }
        const_iterator operator--(int) { return const_iterator(it_--); }
        const_iterator& operator+=(difference_type n) { return it_ += n, *this; }
        const_iterator& operator-=(difference_type n) { return it_ -= n, *this; }
        friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
        friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
        friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return a.it_ - b.it_;
        }
        bool operator==(const const_iterator&) const = default;
        auto operator<=>(const const_iterator&) const = default;

        // The shared element itself, for a vector that takes it over unchanged.
        const std::shared_ptr<const T>& share() const { return *it_; }
        typename Slots::const_iterator base() const { return it_; }

    private:
        typename Slots::const_iterator it_{};
    };

    // Dereferencing makes the element the vector's own first; iterate a const vector to read.
    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = T*;
        using reference = T&;

        iterator() = default;
        iterator(CopyOnWriteVector* owner, size_type index) : owner_(owner), index_(index) {}

        T& operator*() const { return owner_->own(index_); }
        T* operator->() const { return &owner_->own(index_); }
        T& operator[](difference_type n) const { return owner_->own(index_ + n); }
        iterator& operator++() { return ++index_, *this; }
        iterator operator++(int) { return iterator(owner_, index_++); }
        iterator& operator--() { return --index_, *this; }
        iterator operator--(int) { return iterator(owner_, index_--); }
        iterator& operator+=(difference_type n) { return index_ += n, *this; }
        iterator& operator-=(difference_type n) { return index_ -= n, *this; }
        friend iterator operator+(iterator a, difference_type n) { return a += n; }
        friend iterator operator+(difference_type n, iterator a) { return a += n; }
        friend iterator operator-(iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const iterator& a, const iterator& b) {
            return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
        }
        bool operator==(const iterator& o) const { return index_ == o.index_; }
        auto operator<=>(const iterator& o) const { return index_ <=> o.index_; }
        operator const_iterator() const {
            return const_iterator(owner_->slots_.cbegin() + static_cast<difference_type>(index_));
        }
        size_type index() const { return index_; }

    private:
        CopyOnWriteVector* owner_ = nullptr;
        size_type index_ = 0;
    };

    CopyOnWriteVector() = default;
    CopyOnWriteVector(std::initializer_list<T> items) {
        slots_.reserve(items.size());
        for (const auto& v : items) push_back(v);
    }
    CopyOnWriteVector(std::vector<T> items) {  // NOLINT: as a std::vector converts
        slots_.reserve(items.size());
        for (auto& v : items) push_back(std::move(v));
    }

    size_type size() const { return slots_.size(); }
    bool empty() const { return slots_.empty(); }
    void reserve(size_type n) { slots_.reserve(n); }
    void clear() { slots_.clear(); }

    const T& operator[](size_type i) const { return *slots_[i]; }
    T& operator[](size_type i) { return own(i); }
    const T& at(size_type i) const { return *slots_.at(i); }
    T& at(size_type i) { return (void)slots_.at(i), own(i); }
    const T& front() const { return *slots_.front(); }
    T& front() { return own(0); }
    const T& back() const { return *slots_.back(); }
    T& back() { return own(slots_.size() - 1); }

    const_iterator begin() const { return const_iterator(slots_.cbegin()); }
    const_iterator end() const { return const_iterator(slots_.cend()); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, slots_.size()); }

    void push_back(T value) { slots_.push_back(std::make_shared<T>(std::move(value))); }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        slots_.push_back(std::make_shared<T>(std::forward<Args>(args)...));
        return own(slots_.size() - 1);
    }
    // Replaces an element without copying the old one first.
    void set(size_type i, T value) { slots_[i] = std::make_shared<T>(std::move(value)); }
    // Takes over an element another vector holds, without copying it.
    void push_shared(std::shared_ptr<const T> item) { slots_.push_back(std::move(item)); }
    const std::shared_ptr<const T>& shared(size_type i) const { return slots_[i]; }
    void pop_back() { slots_.pop_back(); }
    void resize(size_type n) {
        if (n < slots_.size()) {
            slots_.resize(n);
            return;
        }
        slots_.reserve(n);
        while (slots_.size() < n) slots_.push_back(std::make_shared<T>());
    }
    iterator insert(const_iterator pos, T value) {
        auto at = slots_.insert(pos.base(), std::make_shared<T>(std::move(value)));
        return iterator(this, static_cast<size_type>(at - slots_.begin()));
    }
    iterator erase(const_iterator pos) {
        auto at = slots_.erase(pos.base());
        return iterator(this, static_cast<size_type>(at - slots_.begin()));
    }
    iterator erase(const_iterator first, const_iterator last) {
        auto at = slots_.erase(first.base(), last.base());
        return iterator(this, static_cast<size_type>(at - slots_.begin()));
    }

    // Removes the elements `pred` (called with const T&) selects; returns how many.
    template <class Pred>
    size_type remove_if(Pred pred) {
        const size_type before = slots_.size();
        std::erase_if(slots_, [&](const std::shared_ptr<const T>& p) { return pred(*p); });
        return before - slots_.size();
    }

    // Elements equal one by one; a shared element is equal to itself without a look inside.
    bool operator==(const CopyOnWriteVector& o) const {
        if (slots_.size() != o.slots_.size()) return false;
        for (size_type i = 0; i < slots_.size(); ++i) {
            if (slots_[i] != o.slots_[i] && !(*slots_[i] == *o.slots_[i])) return false;
        }
        return true;
    }

private:
    T& own(size_type i) {
        auto& slot = slots_[i];
        // Made here (make_shared<T>), so the element itself is not const: writing it once this
        // vector holds the only pointer is sound.
        if (slot.use_count() != 1) slot = std::make_shared<T>(*slot);
        return const_cast<T&>(*slot);
    }

    Slots slots_;
};

template <class T, class Pred>
typename CopyOnWriteVector<T>::size_type erase_if(CopyOnWriteVector<T>& v, Pred pred) {
    return v.remove_if(std::move(pred));
}

}  // namespace rdmadiag
