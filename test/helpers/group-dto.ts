/** Response shapes of the group endpoints, as the group tests read them. */
export interface GroupDto {
  id: number;
  groupId: string;
  name: string;
  parentGroupId: number | null;
  childGroupCount: number;
  productCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface NodeDto {
  id: number;
  groupId: string;
  name: string;
  productCount: number;
  children: NodeDto[];
}
