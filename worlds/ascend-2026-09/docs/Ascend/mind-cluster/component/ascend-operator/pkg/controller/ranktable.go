// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements RankTableGenerator: generates rank table for AscendJob pods.
package main

import "ascend-common/common-utils/hwlog"

// RankTableGenerator generates rank table for AscendJob pods.
type RankTableGenerator struct {
	interval int
}

// Run starts RankTableGenerator
func (c *RankTableGenerator) Run() error {
	hwlog.RunLog.Infof("RankTableGenerator started, interval %d", c.interval)
	return nil
}
