// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements runtime: OCI hook that injects devices and default mounts.
package main

import "ascend-common/common-utils/hwlog"

// runtime OCI hook that injects devices and default mounts.
type runtime struct {
	interval int
}

// Run starts runtime
func (c *runtime) Run() error {
	hwlog.RunLog.Infof("runtime started, interval %d", c.interval)
	return nil
}
