/* SPDX-License-Identifier: MIT */
/**
 * @file knight.h
 * @brief Umbrella header: includes every libknight module.
 */
#ifndef KNIGHT_KNIGHT_H
#define KNIGHT_KNIGHT_H

#include <knight/common.h>
#include <knight/version.h>
#include <knight/options.h>
#include <knight/graph.h>
#include <knight/tourney.h>
#include <knight/io.h>
#include <knight/stats.h>
#include <knight/walks.h>
#include <knight/exhaustive.h>
#include <knight/rails.h>
#include <knight/semimagic.h>
#include <knight/halftour.h>
#include <knight/count.h>
#include <knight/generate.h>
#include <knight/sample.h>

#endif /* KNIGHT_KNIGHT_H */
