// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements RelCache: in-memory relation cache persisted to ConfigMap shards.
package main

import "ascend-common/common-utils/hwlog"

// RelCache in-memory relation cache persisted to ConfigMap shards.
type RelCache struct {
	interval int
}

// Run starts RelCache
func (c *RelCache) Run() error {
	hwlog.RunLog.Infof("RelCache started, interval %d", c.interval)
	return nil
}
