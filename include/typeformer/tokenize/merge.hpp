// BPE encoding of one pre-tokenized piece by merge rank, in O(n log n) for n symbols: a
// priority queue of adjacent pairs keyed by (rank, position) over a linked list of symbols, as
// Hugging Face's tokenizers do (GPT-2's encoder.py and tiktoken scan the whole word for the
// lowest rank after each merge: quadratic in a long word; bench_tokenize measures it). A word of
// at most short_word symbols, most of a text's, is merged by that scan in place, without
// allocating: for so few symbols it is the faster of the two (both merge the same pairs in the
// same order).
//
//   merge_table                 (a, b) → {rank, merged id}
//   merge_by_rank(word, table)  merges in place until no adjacent pair has a rank
//
// It gives encoder.py's result whenever each merge's two parts are made by earlier merges (or
// are bytes), which both tokenizers' files guarantee (they are checked on loading): taking the
// leftmost pair of lowest rank one at a time merges exactly the occurrences encoder.py merges
// in one left-to-right pass, since a pair a merge creates always ranks after that merge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <unordered_map>
#include <vector>

#include "../token.hpp"

namespace typeformer::tokenize::detail {

inline std::uint64_t pair_key(token a, token b) noexcept {
    return (static_cast<std::uint64_t>(a) << 32) | b;
}

struct merge_rule {
    std::uint32_t rank;
    token merged;
};

using merge_table = std::unordered_map<std::uint64_t, merge_rule>;

inline constexpr std::size_t short_word = 32;

// The rescan: rank[i] is the rank of the pair (word[i], word[i + 1]); each round merges the
// leftmost pair of lowest rank and looks up the two pairs it changed.
inline void merge_short(std::vector<token>& word, const merge_table& table) {
    constexpr std::uint32_t no_rank = static_cast<std::uint32_t>(-1);
    std::uint32_t rank[short_word];
    token merged[short_word];
    std::size_t n = word.size();
    auto look = [&](std::size_t i) {
        const auto it = table.find(pair_key(word[i], word[i + 1]));
        rank[i] = it == table.end() ? no_rank : it->second.rank;
        merged[i] = it == table.end() ? 0 : it->second.merged;
    };
    for (std::size_t i = 0; i + 1 < n; ++i)
        look(i);
    for (;;) {
        std::size_t best = n;
        std::uint32_t r = no_rank;
        for (std::size_t i = 0; i + 1 < n; ++i)
            if (rank[i] < r)
                r = rank[i], best = i;
        if (best == n)
            break;
        word[best] = merged[best];  // the pair (best, best + 1) becomes one symbol at best
        for (std::size_t k = best + 1; k + 1 < n; ++k)
            word[k] = word[k + 1];
        for (std::size_t k = best + 1; k + 2 < n; ++k)  // the pairs after it move down by one
            rank[k] = rank[k + 1], merged[k] = merged[k + 1];
        --n;
        if (best > 0)
            look(best - 1);
        if (best + 1 < n)
            look(best);
    }
    word.resize(n);
}

inline void merge_by_rank(std::vector<token>& word, const merge_table& table) {
    const std::size_t n = word.size();
    if (n < 2)
        return;
    if (n <= short_word) {
        merge_short(word, table);
        return;
    }
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::vector<std::size_t> next(n), prev(n);
    for (std::size_t i = 0; i < n; ++i)
        next[i] = i + 1 < n ? i + 1 : none, prev[i] = i == 0 ? none : i - 1;
    // (rank, left position, the pair's ids when queued, their merge): stale entries are skipped
    // when popped
    struct entry {
        std::uint32_t rank;
        std::size_t left;
        token a, b, merged;
        bool operator>(const entry& o) const noexcept {
            return rank != o.rank ? rank > o.rank : left > o.left;
        }
    };
    std::priority_queue<entry, std::vector<entry>, std::greater<>> queue;
    auto push = [&](std::size_t i) {
        if (i == none || next[i] == none)
            return;
        if (const auto it = table.find(pair_key(word[i], word[next[i]])); it != table.end())
            queue.push({it->second.rank, i, word[i], word[next[i]], it->second.merged});
    };
    for (std::size_t i = 0; i + 1 < n; ++i)
        push(i);
    std::vector<bool> gone(n, false);
    while (!queue.empty()) {
        const entry e = queue.top();
        queue.pop();
        const std::size_t i = e.left, j = next[i];
        if (gone[i] || j == none || word[i] != e.a || word[j] != e.b)
            continue;  // merged away or changed since it was queued
        word[i] = e.merged;
        gone[j] = true;
        next[i] = next[j];
        if (next[j] != none)
            prev[next[j]] = i;
        push(prev[i]);
        push(i);
    }
    std::size_t out = 0;
    for (std::size_t i = 0; i != none; i = next[i])
        word[out++] = word[i];
    word.resize(out);
}

}  // namespace typeformer::tokenize::detail
