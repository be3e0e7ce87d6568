// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.

// Package implements Reporter: writes node fault info into the node ConfigMap.
package main

import "ascend-common/common-utils/hwlog"

// Reporter writes node fault info into the node ConfigMap.
type Reporter struct {
	interval int
}

// Run starts Reporter
func (c *Reporter) Run() error {
	hwlog.RunLog.Infof("Reporter started, interval %d", c.interval)
	return nil
}
