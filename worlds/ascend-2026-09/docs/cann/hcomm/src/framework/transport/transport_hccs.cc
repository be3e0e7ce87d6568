/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * TransportHccs: HCCS link inside one server: peer memory mapping and notify records.
 */
#include "log.h"

namespace hccl {

HcclResult TransportHccs::Init()
{
    HCCL_INFO("TransportHccs init");
    return HCCL_SUCCESS;
}

HcclResult TransportHccs::Run(u32 timeoutMs)
{
    // HCCS link inside one server: peer memory mapping and notify records.
    CHK_RET(Prepare());
    return Execute(timeoutMs);
}

}  // namespace hccl
